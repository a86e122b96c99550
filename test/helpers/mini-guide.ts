import type { Guide } from '../../lambdas/x12/guide';

/**
 * A small purchase-order-like guide for rule and structure tests: every element type, a
 * composite, syntax notes, a situational rule, loop variants told apart by N101, a nested loop
 * and an HL loop.
 */
export const miniGuide: Guide = {
  id: 'test-mini',
  title: 'Mini',
  transactionSet: '850',
  functionalGroup: 'PO',
  release: '005010',
  businessIdentifiers: [{ element: 'BEG-03', name: 'Purchase Order Number' }],
  fragmentLoop: 'PO1',
  segments: {
    ST: {
      name: 'Transaction Set Header',
      elements: [
        { ref: '143', name: 'Transaction Set Identifier Code', type: 'ID', min: 3, max: 3, req: 'M', codes: ['850'] },
        { ref: '329', name: 'Transaction Set Control Number', type: 'AN', min: 4, max: 9, req: 'M' },
        { ref: '1705', name: 'Implementation Convention Reference', type: 'AN', min: 1, max: 35, req: 'O' },
      ],
    },
    BEG: {
      name: 'Beginning Segment for Purchase Order',
      elements: [
        { ref: '353', name: 'Transaction Set Purpose Code', type: 'ID', min: 2, max: 2, req: 'M', codes: ['00', '01'] },
        { ref: '92', name: 'Purchase Order Type Code', type: 'ID', min: 2, max: 2, req: 'M' },
        { ref: '324', name: 'Purchase Order Number', type: 'AN', min: 1, max: 22, req: 'M' },
        { ref: '328', name: 'Release Number', type: 'AN', min: 1, max: 30, req: 'O' },
        { ref: '373', name: 'Date', type: 'DT', min: 8, max: 8, req: 'M' },
      ],
    },
    DTM: {
      name: 'Date/Time Reference',
      elements: [
        { ref: '374', name: 'Date/Time Qualifier', type: 'ID', min: 3, max: 3, req: 'M' },
        { ref: '373', name: 'Date', type: 'DT', min: 8, max: 8, req: 'X' },
        { ref: '337', name: 'Time', type: 'TM', min: 4, max: 8, req: 'X' },
      ],
      syntax: ['R0203', 'C0302'],
    },
    N1: {
      name: 'Party Identification',
      elements: [
        { ref: '98', name: 'Entity Identifier Code', type: 'ID', min: 2, max: 3, req: 'M' },
        { ref: '93', name: 'Name', type: 'AN', min: 1, max: 60, req: 'X' },
        { ref: '66', name: 'Identification Code Qualifier', type: 'ID', min: 1, max: 2, req: 'X' },
        { ref: '67', name: 'Identification Code', type: 'AN', min: 2, max: 80, req: 'X' },
      ],
      syntax: ['R0203', 'P0304'],
    },
    N3: {
      name: 'Party Location',
      elements: [
        { ref: '166', name: 'Address Information', type: 'AN', min: 1, max: 55, req: 'M' },
        { ref: '166', name: 'Address Information', type: 'AN', min: 1, max: 55, req: 'O' },
      ],
    },
    HL: {
      name: 'Hierarchical Level',
      elements: [
        { ref: '628', name: 'Hierarchical ID Number', type: 'AN', min: 1, max: 12, req: 'M' },
        { ref: '734', name: 'Hierarchical Parent ID Number', type: 'AN', min: 1, max: 12, req: 'O' },
        { ref: '735', name: 'Hierarchical Level Code', type: 'ID', min: 1, max: 2, req: 'M' },
      ],
    },
    PO1: {
      name: 'Baseline Item Data',
      elements: [
        { ref: '350', name: 'Assigned Identification', type: 'AN', min: 1, max: 20, req: 'O' },
        { ref: '330', name: 'Quantity', type: 'R', min: 1, max: 15, req: 'X' },
        { ref: '355', name: 'Unit or Basis for Measurement Code', type: 'ID', min: 2, max: 2, req: 'O' },
        { ref: '212', name: 'Unit Price', type: 'R', min: 1, max: 17, req: 'X' },
        { ref: '639', name: 'Basis of Unit Price Code', type: 'ID', min: 2, max: 2, req: 'O' },
        { ref: '235', name: 'Product/Service ID Qualifier', type: 'ID', min: 2, max: 2, req: 'X' },
        { ref: '234', name: 'Product/Service ID', type: 'AN', min: 1, max: 48, req: 'X' },
      ],
      syntax: ['C0302', 'P0607'],
    },
    SLN: {
      name: 'Subline Item Detail',
      elements: [
        { ref: '350', name: 'Assigned Identification', type: 'AN', min: 1, max: 20, req: 'M' },
        {
          ref: 'C001',
          name: 'Composite Unit of Measure',
          type: 'composite',
          req: 'O',
          components: [
            { ref: '355', name: 'Unit or Basis for Measurement Code', type: 'ID', min: 2, max: 2, req: 'M' },
            { ref: '1018', name: 'Exponent', type: 'R', min: 1, max: 15, req: 'O' },
            { ref: '649', name: 'Multiplier', type: 'R', min: 1, max: 10, req: 'O' },
          ],
        },
        { ref: '380', name: 'Quantity', type: 'N2', min: 1, max: 10, req: 'O' },
        { ref: '1271', name: 'Industry Code', type: 'AN', min: 1, max: 30, req: 'O', repeat: 3 },
      ],
    },
    CTT: {
      name: 'Transaction Totals',
      elements: [
        { ref: '354', name: 'Number of Line Items', type: 'N0', min: 1, max: 6, req: 'M' },
        { ref: '347', name: 'Hash Total', type: 'R', min: 1, max: 10, req: 'O' },
      ],
    },
    SE: {
      name: 'Transaction Set Trailer',
      elements: [
        { ref: '96', name: 'Number of Included Segments', type: 'N0', min: 1, max: 10, req: 'M' },
        { ref: '329', name: 'Transaction Set Control Number', type: 'AN', min: 4, max: 9, req: 'M' },
      ],
    },
  },
  structure: {
    heading: [
      { segment: 'ST', min: 1, max: 1 },
      { segment: 'BEG', min: 1, max: 1 },
      {
        segment: 'DTM',
        min: 0,
        max: 10,
        rules: [{ when: { element: '01', equals: ['002'] }, require: ['02'], message: 'DTM02 is required when DTM01 is 002' }],
      },
      {
        loop: 'N1',
        name: 'Ship To',
        suffix: 'ship_to',
        min: 0,
        max: 1,
        items: [
          { segment: 'N1', name: 'Party Identification', min: 1, max: 1, elements: { '01': { codes: ['ST'] } } },
          { segment: 'N3', min: 0, max: 2 },
        ],
      },
      {
        loop: 'N1',
        name: 'Bill To',
        suffix: 'bill_to',
        min: 0,
        max: 1,
        items: [
          {
            segment: 'N1',
            name: 'Party Identification',
            min: 1,
            max: 1,
            elements: { '01': { codes: ['BT'] }, '03': { usage: 'N' }, '04': { usage: 'N' } },
          },
          { segment: 'N3', min: 1, max: 2 },
        ],
      },
    ],
    detail: [
      {
        loop: 'PO1',
        min: 1,
        max: 100000,
        items: [
          { segment: 'PO1', min: 1, max: 1 },
          { loop: 'SLN', min: 0, max: 1000, items: [{ segment: 'SLN', min: 1, max: 1 }] },
        ],
      },
      {
        loop: 'HL',
        min: 0,
        max: 99999,
        items: [{ segment: 'HL', min: 1, max: 1 }],
      },
    ],
    summary: [
      { loop: 'CTT', min: 0, max: 1, items: [{ segment: 'CTT', min: 1, max: 1 }] },
      { segment: 'SE', min: 1, max: 1 },
    ],
  },
};

/** Wraps transaction-set segments (without ST/SE) in an interchange; SE01 computed. */
export function wrap(body: string[], opts: { st02?: string; se01?: number; icn?: string } = {}): string {
  const st02 = opts.st02 ?? '0001';
  const segs = [`ST*850*${st02}`, ...body];
  const se01 = opts.se01 ?? segs.length + 1;
  return [
    `ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*${opts.icn ?? '000000001'}*0*T*:`,
    'GS*PO*SENDER*RECEIVER*20240101*1200*1*X*005010',
    ...segs,
    `SE*${se01}*${st02}`,
    'GE*1*1',
    `IEA*1*${opts.icn ?? '000000001'}`,
  ]
    .join('~\n')
    .concat('~\n');
}
