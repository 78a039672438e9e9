// integration tests clone databases and run many statements on them: a minute per test, not
// jest's default 5 seconds (a project's own testTimeout is not applied by jest 30).
jest.setTimeout(60_000);
