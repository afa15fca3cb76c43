// The sandbox times of actions, apart so that the executors (which name the undo
// window in their words) and the action state can both use them.

/** How long an executed action can be undone. */
export const UNDO_WINDOW_MS = 10 * 60_000;
/** How long a pending action waits for a decision before it expires. */
export const EXPIRE_MS = 24 * 60 * 60_000;
/** Sandbox time between approval and the end of execution. */
export const EXECUTE_MS = 2_000;
