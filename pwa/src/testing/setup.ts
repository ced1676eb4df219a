/**
 * Setup of the `components` project (test/vitest.config.ts): the app speaks English with the
 * dates of en-US ("Jun 11, 2026"), every test runs at the fixed `testNow` (only `Date` is faked;
 * timers, Dexie and fake-indexeddb run on real time), waits for what it finds as long as the
 * unit tests' polls do (Testing Library's default of 1 s is too short for a loaded machine; a
 * passing query returns at once), and unmounts what it rendered.
 */
import { cleanup, configure } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";
import { testNow } from "./clock.ts";

// The browser's languages, which the app reads once when i18n.ts loads (after this file).
Object.defineProperty(navigator, "languages", { value: ["en-US", "en"], configurable: true });
Object.defineProperty(navigator, "language", { value: "en-US", configurable: true });

configure({ asyncUtilTimeout: 4_500 });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"], now: testNow });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});
