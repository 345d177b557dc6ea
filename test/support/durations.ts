/**
 * Measured durations (ms) of the test files, by `project:path`, longest first: the order
 * test/support/sequencer.ts runs them in. Regenerate with scripts/test-durations.ts.
 */
export const durations: Record<string, number> = {};
