/** Polls `done` every 100 ms until it holds or `deadlineMs` passed; whether it held (suites of real processes). */
export async function until(done: () => boolean | Promise<boolean>, deadlineMs: number): Promise<boolean> {
  const deadline = Date.now() + deadlineMs;
  while (!(await done())) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return true;
}
