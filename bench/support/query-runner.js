// The surface of a TypeORM QueryRunner the service's transactions use (src/database/
// transaction.ts: connect, start, commit, rollback, release), over a node-postgres client, for
// the bench's stand-ins of a DataSource (the baseline, the pay-and-close's EXPLAIN).
//
// acquire(): the client (an EventEmitter: the transaction listens to its `error`), the query
// function the transaction's statements go through, and optionally `control`, the one its BEGIN,
// COMMIT and ROLLBACK go through (the client's own by default); release(client): gives it back.

const rowsOf = (result) => result.rows;

function queryRunner({ acquire, release = () => undefined }) {
  let held;
  const runner = {
    isTransactionActive: false,
    isReleased: false,
    async connect() {
      held = await acquire();
      held.control ??= (sql) => held.client.query(sql);
      return held.client;
    },
    manager: { query: (sql, params) => held.query(sql, params) },
    async startTransaction() {
      await held.control('BEGIN');
      runner.isTransactionActive = true;
    },
    async commitTransaction() {
      await held.control('COMMIT');
      runner.isTransactionActive = false;
    },
    async rollbackTransaction() {
      runner.isTransactionActive = false;
      await held.control('ROLLBACK');
    },
    async release() {
      if (runner.isReleased) return;
      runner.isReleased = true;
      if (held) release(held.client);
    },
  };
  return runner;
}

/** A runner on a client of `pool`, its statements' rows as TypeORM's query answers them. */
function poolQueryRunner(pool) {
  return queryRunner({
    acquire: async () => {
      const client = await pool.connect();
      return { client, query: (sql, params) => client.query(sql, params).then(rowsOf) };
    },
    release: (client) => client.release(),
  });
}

module.exports = { queryRunner, poolQueryRunner };
