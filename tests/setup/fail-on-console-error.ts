// A test that logs an error has hidden a failure: make it fail loudly instead.
import { afterEach, vi } from "vitest";

const consoleError = vi.spyOn(console, "error");

afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0) {
    throw new Error(`console.error was called: ${calls.map((c) => c.join(" ")).join("\n")}`);
  }
});
