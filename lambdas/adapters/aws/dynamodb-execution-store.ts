import { type DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  DeliveryReportRecord,
  ExecutionRecord,
  ExecutionStatus,
  ExecutionStore,
  ListFilter,
  Page,
  PageRequest,
  TransactionRecord,
} from '../../ports';
import { callAws, isConditionalCheckFailed } from './errors';

/**
 * Executions (sk `E#<id>`), transactions (`T#<id>`) and delivery reports (`R#<execution>#...`)
 * in the state table under pk `A#<account>`; GSI `gsi1` lists executions and transactions newest
 * first (gsi1pk `A#<account>#E|T`, gsi1sk `<createdAt>#<id>`).
 */
export class DynamoDbExecutionStore implements ExecutionStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async createExecution(execution: ExecutionRecord): Promise<void> {
    await this.put(execution.accountId, 'E', execution.executionId, execution.createdAt, execution);
  }

  async getExecution(accountId: string, executionId: string): Promise<ExecutionRecord | undefined> {
    return (await this.get(accountId, `E#${executionId}`)) as ExecutionRecord | undefined;
  }

  async updateExecution(
    accountId: string,
    executionId: string,
    from: readonly ExecutionStatus[],
    changes: Partial<ExecutionRecord>,
  ): Promise<ExecutionRecord | undefined> {
    const names: Record<string, string> = { '#status': 'status' };
    const values: Record<string, unknown> = {};
    const sets: string[] = [];
    Object.entries(changes).forEach(([field, value], index) => {
      if (field === 'accountId' || field === 'executionId' || value === undefined) return;
      names[`#f${index}`] = field;
      values[`:v${index}`] = value;
      sets.push(`#f${index} = :v${index}`);
    });
    const allowed = from.map((_, index) => `:from${index}`);
    from.forEach((status, index) => {
      values[`:from${index}`] = status;
    });
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `A#${accountId}`, sk: `E#${executionId}` },
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: `attribute_exists(pk) AND #status IN (${allowed.join(', ')})`,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return strip(result.Attributes) as unknown as ExecutionRecord;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      return callAws('execution update', () => Promise.reject(error));
    }
  }

  listExecutions(accountId: string, page: PageRequest, filter: ListFilter = {}): Promise<Page<ExecutionRecord>> {
    return this.list(accountId, 'E', page, filter) as unknown as Promise<Page<ExecutionRecord>>;
  }

  async createTransaction(transaction: TransactionRecord): Promise<void> {
    await this.put(transaction.accountId, 'T', transaction.transactionId, transaction.createdAt, transaction);
  }

  async getTransaction(accountId: string, transactionId: string): Promise<TransactionRecord | undefined> {
    return (await this.get(accountId, `T#${transactionId}`)) as TransactionRecord | undefined;
  }

  listTransactions(accountId: string, page: PageRequest, filter: ListFilter = {}): Promise<Page<TransactionRecord>> {
    return this.list(accountId, 'T', page, filter) as unknown as Promise<Page<TransactionRecord>>;
  }

  async addDeliveryReport(report: DeliveryReportRecord): Promise<void> {
    await callAws('delivery report write', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: `A#${report.accountId}`, sk: `R#${report.executionId}#${report.createdAt}#${report.id}`, ...report },
        }),
      ),
    );
  }

  async listDeliveryReports(accountId: string, executionId: string): Promise<DeliveryReportRecord[]> {
    const reports: DeliveryReportRecord[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const result = await callAws('delivery report list', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': `A#${accountId}`, ':prefix': `R#${executionId}#` },
            ConsistentRead: true,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const item of result.Items ?? []) reports.push(strip(item) as unknown as DeliveryReportRecord);
      start = result.LastEvaluatedKey;
    } while (start);
    return reports;
  }

  private async put(accountId: string, type: 'E' | 'T', id: string, createdAt: string, record: object): Promise<void> {
    await callAws(type === 'E' ? 'execution write' : 'transaction write', () =>
      this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { pk: `A#${accountId}`, sk: `${type}#${id}`, gsi1pk: `A#${accountId}#${type}`, gsi1sk: `${createdAt}#${id}`, ...record },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
  }

  private async get(accountId: string, sk: string): Promise<Record<string, unknown> | undefined> {
    const result = await callAws('state read', () =>
      this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: `A#${accountId}`, sk }, ConsistentRead: true })),
    );
    return result.Item ? strip(result.Item) : undefined;
  }

  private async list(accountId: string, type: 'E' | 'T', page: PageRequest, filter: ListFilter): Promise<Page<Record<string, unknown>>> {
    const values: Record<string, unknown> = { ':pk': `A#${accountId}#${type}` };
    let condition = 'gsi1pk = :pk';
    if (filter.from !== undefined && filter.to !== undefined) {
      condition += ' AND gsi1sk BETWEEN :from AND :to';
      values[':from'] = filter.from;
      values[':to'] = `${filter.to}\uffff`;
    } else if (filter.from !== undefined) {
      condition += ' AND gsi1sk >= :from';
      values[':from'] = filter.from;
    } else if (filter.to !== undefined) {
      condition += ' AND gsi1sk <= :to';
      values[':to'] = `${filter.to}\uffff`;
    }
    const names: Record<string, string> = {};
    const filters: string[] = [];
    Object.entries(filter.equals ?? {}).forEach(([field, value], index) => {
      names[`#e${index}`] = field;
      values[`:e${index}`] = value;
      filters.push(`#e${index} = :e${index}`);
    });
    // With a filter, DynamoDB's Limit counts items read, not items returned: read on until the
    // page is full or the index ends, so pages are full and a missing token means the end.
    const items: Record<string, unknown>[] = [];
    let start = page.cursor;
    do {
      const result = await callAws(type === 'E' ? 'execution list' : 'transaction list', () =>
        this.client.send(
          new QueryCommand({
            TableName: this.tableName,
            IndexName: 'gsi1',
            KeyConditionExpression: condition,
            ScanIndexForward: false,
            ExpressionAttributeValues: values,
            ...(filters.length > 0 ? { FilterExpression: filters.join(' AND '), ExpressionAttributeNames: names } : {}),
            Limit: page.limit - items.length,
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const item of result.Items ?? []) items.push(strip(item));
      start = result.LastEvaluatedKey;
    } while (start && items.length < page.limit);
    return { items, ...(start ? { cursor: start } : {}) };
  }
}

function strip(item: Record<string, unknown> | undefined): Record<string, unknown> {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, ...rest } = item ?? {};
  return rest;
}
