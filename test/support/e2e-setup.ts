// e2e tests start processes and databases: a minute per test, not jest's default 5 seconds.
jest.setTimeout(60_000);
