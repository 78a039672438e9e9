import type { EventEmitter } from 'node:events';
import type { Queryable } from './sql';
import {
  QueryRunnerAlreadyReleasedError,
  type DataSource,
  type EntityManager,
  type QueryRunner,
} from 'typeorm';

interface PgResult {
  command: string;
  rows: unknown[];
  rowCount: number | null;
}

/** The part of a node-postgres client (or pool) statements go through. */
interface PgQueryable {
  query(sql: string, parameters?: unknown[]): Promise<PgResult>;
}

interface PgClient extends PgQueryable, EventEmitter {}

/**
 * A failed statement's error names its SQL text (`query`, as TypeORM's QueryFailedError did):
 * the log of an unexpected database error says which statement failed, never with the values
 * it was sent (docs/security.md).
 */
function withStatement(error: unknown, sql: string): unknown {
  if (typeof error === 'object' && error !== null && !('query' in error))
    Object.defineProperty(error, 'query', { value: sql, enumerable: true });
  return error;
}

/** Runs a statement on a node-postgres client or pool, its failure naming the statement. */
async function run(on: PgQueryable, sql: string, parameters?: unknown[]): Promise<PgResult> {
  try {
    return await on.query(sql, parameters);
  } catch (error) {
    throw withStatement(error, sql);
  }
}

/** A statement's answer as TypeORM's `query` gives it: `[rows, rowCount]` for UPDATE and DELETE. */
function answerOf(result: PgResult): unknown {
  return result.command === 'UPDATE' || result.command === 'DELETE'
    ? [result.rows, result.rowCount]
    : result.rows;
}

/** TypeORM's runner with the depth of its transaction (its savepoints), kept by its base class. */
type DepthOf<R> = Omit<R, 'isTransactionActive'> & {
  isTransactionActive: boolean;
  transactionDepth: number;
};

const direct = new WeakMap<DataSource, Queryable>();

/**
 * A statement outside a transaction, sent straight to a connection of the DataSource's pool
 * (node-postgres' `pool.query`) rather than through TypeORM's `DataSource.query`, which makes a
 * query runner for each one (and the query events, logging and error wrapper of
 * TransactionConnection's `manager`). Answers as TypeORM does.
 */
export function directQueries(dataSource: DataSource): Queryable {
  let queryable = direct.get(dataSource);
  if (!queryable) {
    const pool = (dataSource.driver as { master?: PgQueryable } | undefined)?.master;
    // a stand-in without a node-postgres pool (the bench's baseline) is used as it is
    if (!pool) return dataSource;
    queryable = {
      query: async <T>(sql: string, parameters?: unknown[]) =>
        answerOf(await run(pool, sql, parameters)) as T,
    };
    direct.set(dataSource, queryable);
  }
  return queryable;
}

/**
 * A connection of a DataSource held for one transaction, which remembers the error that ended
 * it when PostgreSQL or the network did.
 *
 * When PostgreSQL goes away under a transaction (a shutdown, a crash, a lost network), the
 * driver says so once: the statement then running fails with the connection's error, or,
 * between two statements, the connection reports it as an event, on which TypeORM releases the
 * query runner. Every later use of the transaction (its next statement, the commit, the
 * rollback) then throws TypeORM's "query runner already released", which says nothing of the
 * outage and, in its place, was answered 500. `failure` gives back the connection's own error
 * instead, which the SQLSTATE translator answers 503 DATABASE_UNAVAILABLE: the transaction was
 * rolled back (or, lost during its very commit, may have committed), and the client may retry.
 * A runner released while its connection is alive (our code using a transaction after its end)
 * is a bug, and its error stays what it is: a 500.
 *
 * Nothing here reads an error (the translator is the one reader of driver errors): it only
 * keeps the one the connection reported.
 */
export class TransactionConnection {
  /**
   * The transaction's EntityManager, its `query` sent straight to the connection's client: the
   * statements of a request are the request path's most frequent call, and TypeORM's own
   * `query` adds to each one work this service never uses (query events for subscribers, query
   * logging, a timer for slow-query logging, an error wrapper the SQLSTATE translator unwraps
   * again). It answers as TypeORM's does: `[rows, rowCount]` for UPDATE and DELETE, the rows
   * otherwise; a runner already released throws TypeORM's error, as before.
   */
  readonly manager: EntityManager;
  /** The error the connection ended with, once it did. */
  private lost: { error: unknown } | undefined;
  private readonly onLost = (error: unknown) => {
    this.lost ??= { error };
  };
  /**
   * Whether BEGIN and COMMIT go straight to the client too (see `begin`): a TypeORM runner of a
   * DataSource without subscribers (nobody listens to its transaction events) nor an isolation
   * level of its own to set.
   */
  private readonly direct: boolean;

  private constructor(
    readonly runner: QueryRunner,
    private readonly client: PgClient,
  ) {
    client.on('error', this.onLost);
    const query = async (sql: string, parameters?: unknown[]): Promise<unknown> => {
      if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
      return answerOf(await run(client, sql, parameters));
    };
    // a stand-in of TypeORM's runner (the bench's baseline, its EXPLAIN) keeps its own manager
    const typeorm = (runner as Partial<QueryRunner>).connection !== undefined;
    // the runner's manager is its own (DataSource.createQueryRunner makes one per runner): its
    // `query` is replaced on it, not on an object made with it as prototype (V8 turns a new
    // prototype into a prototype's shape each time: the largest cost of opening a transaction)
    if (typeorm) Object.defineProperty(runner.manager, 'query', { value: query });
    this.manager = runner.manager;
    this.direct =
      typeorm &&
      typeof (runner as DepthOf<QueryRunner>).transactionDepth === 'number' &&
      runner.connection.subscribers.length === 0 &&
      !(runner.connection.options as { isolationLevel?: string }).isolationLevel;
  }

  /**
   * Starts the transaction: TypeORM's `startTransaction`, its statement sent to the client
   * straight when nothing listens to its events (`direct`), its runner marked as TypeORM marks
   * it (active, one level deep), so TypeORM's own code on the runner (a repository's save, a
   * nested transaction's savepoint, the rollback) sees the transaction as its own.
   */
  async begin(): Promise<void> {
    const runner = this.runner as DepthOf<QueryRunner>;
    if (!this.direct || runner.transactionDepth !== 0) return this.runner.startTransaction();
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    runner.isTransactionActive = true;
    await run(this.client, 'START TRANSACTION');
    runner.transactionDepth = 1;
  }

  /** Commits the transaction `begin` started (TypeORM's `commitTransaction`, as `begin` does). */
  async commit(): Promise<void> {
    const runner = this.runner as DepthOf<QueryRunner>;
    if (!this.direct || runner.transactionDepth !== 1 || !runner.isTransactionActive)
      return this.runner.commitTransaction();
    if (runner.isReleased) throw new QueryRunnerAlreadyReleasedError();
    await run(this.client, 'COMMIT');
    runner.isTransactionActive = false;
    runner.transactionDepth = 0;
  }

  /** A connection of the pool (a pool that cannot connect throws the driver's error). */
  static async open(dataSource: DataSource): Promise<TransactionConnection> {
    const runner = dataSource.createQueryRunner();
    try {
      // the driver's client (node-postgres): it emits `error` when the connection ends
      return new TransactionConnection(runner, (await runner.connect()) as PgClient);
    } catch (error) {
      await runner.release();
      throw error;
    }
  }

  /**
   * What a failure of the work on this connection answers: the connection's own error once the
   * connection is gone (whatever was thrown after it is a consequence of it, and the
   * transaction's fate is the connection's), else `error` itself.
   */
  failure(error: unknown): unknown {
    return this.lost ? this.lost.error : error;
  }

  /**
   * Rolls back the transaction if it is still open and gives the connection back to the pool.
   * Never throws: it runs after the work's own end, a result or the error to answer. On a
   * connection that is gone there is nothing to roll back (PostgreSQL did, or will on its
   * recovery); a rollback that fails otherwise leaves the work's error as the answer, as
   * TypeORM's own transactions do.
   */
  async release(): Promise<void> {
    if (this.runner.isTransactionActive && !this.runner.isReleased) {
      try {
        await this.runner.rollbackTransaction();
      } catch {
        // the work's own error (or the connection's) is the one to answer
      }
    }
    this.client.removeListener('error', this.onLost);
    await this.runner.release();
  }
}

/**
 * Runs `work` in one transaction on a connection of `dataSource`: committed when it returns,
 * rolled back when it throws. A connection lost under it (PostgreSQL stopped or crashed)
 * throws the connection's error, never TypeORM's "already released" (TransactionConnection).
 */
export async function inTransaction<T>(
  dataSource: DataSource,
  work: (tx: EntityManager) => Promise<T>,
): Promise<T> {
  const connection = await TransactionConnection.open(dataSource);
  try {
    await connection.begin();
    const result = await work(connection.manager);
    await connection.commit();
    return result;
  } catch (error) {
    throw connection.failure(error);
  } finally {
    await connection.release();
  }
}
