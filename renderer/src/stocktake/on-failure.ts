// The one way a stocktake view reports a failed request: StocktakeRouter (StocktakeScreen.tsx) hands
// each view the same handler. In a file of its own so the views need not import the screen that
// imports them.

/** What a stocktake view does with a failed request: a revoked token signs out; anything else is shown. */
export type OnFailure = (error: unknown) => void;
