/**
 * Collects generated text with little allocation: characters up to U+00FF (all of X12's
 * character sets) are copied into a byte buffer, which becomes one string piece each time it
 * fills, instead of every segment being a string of its own made of many concatenations. Text
 * with a wider character is kept as a string piece, so nothing is lost or changed: the pieces
 * joined are exactly the text written.
 *
 * Sinks lend one buffer to each other: a sink takes the spare buffer when it is made (or makes
 * its own when another sink holds it) and gives it back in take().
 */
export const SINK_BUFFER_SIZE = 64 * 1024;
const SIZE = SINK_BUFFER_SIZE;
let spare: Buffer | undefined;

export class TextSink {
  private readonly pieces: string[] = [];
  private pos = 0;
  private readonly buf: Buffer;

  constructor() {
    this.buf = spare ?? Buffer.allocUnsafe(SIZE);
    spare = undefined;
  }

  /** Appends text. */
  write(s: string): void {
    const n = s.length;
    let p = this.pos;
    if (p + n > SIZE) {
      this.flush(p);
      p = 0;
      if (n > SIZE) {
        this.pieces.push(s);
        return;
      }
    }
    const buf = this.buf;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) {
        // the part before goes out with the buffer, the rest as a string of its own
        this.flush(p);
        this.pieces.push(i === 0 ? s : s.slice(i));
        return;
      }
      buf[p++] = c;
    }
    this.pos = p;
  }

  /** Appends one character (code up to 0xFF) n times. */
  repeat(code: number, n: number): void {
    let p = this.pos;
    const buf = this.buf;
    for (let i = 0; i < n; i++) {
      if (p === SIZE) {
        this.flush(p);
        p = 0;
      }
      buf[p++] = code;
    }
    this.pos = p;
  }

  /** The text written, in pieces. The sink gives its buffer back: it must not be written again. */
  take(): string[] {
    this.flush(this.pos);
    spare = this.buf;
    return this.pieces.splice(0);
  }

  private flush(p: number): void {
    if (p > 0) this.pieces.push(this.buf.toString('latin1', 0, p));
    this.pos = 0;
  }
}
