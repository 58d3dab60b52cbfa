import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for the UI or a server to get somewhere; its 1 s default fails on a loaded
    // 2-core CI machine. As long as Playwright's own step timeout (test/support/ui-harness.ts).
    expect: { poll: { timeout: 10_000 } },
    globalSetup: ['test/support/build-ui.ts'], // builds the UI for test/e2e when it is missing or stale
  },
});
