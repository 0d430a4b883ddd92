/**
 * The suite is written for jest 27 (its package.json); jest 30, which this project runs, removed the
 * matcher aliases it still uses (`toBeCalled`, `toBeCalledTimes`, `toThrowError`, …; jest 30 changelog,
 * "Remove deprecated matcher aliases"). Each alias is put back here as its documented equivalent, so the
 * suite's files run unchanged.
 */
const ALIASES = {
  toBeCalled: 'toHaveBeenCalled',
  toBeCalledTimes: 'toHaveBeenCalledTimes',
  toBeCalledWith: 'toHaveBeenCalledWith',
  lastCalledWith: 'toHaveBeenLastCalledWith',
  nthCalledWith: 'toHaveBeenNthCalledWith',
  toReturn: 'toHaveReturned',
  toReturnTimes: 'toHaveReturnedTimes',
  toReturnWith: 'toHaveReturnedWith',
  lastReturnedWith: 'toHaveLastReturnedWith',
  nthReturnedWith: 'toHaveNthReturnedWith',
  toThrowError: 'toThrow',
};

expect.extend(
  Object.fromEntries(
    Object.entries(ALIASES).map(([alias, matcher]) => [
      alias,
      function (received, ...expected) {
        // Under `.rejects` jest hands over the rejection itself; `toThrow` wants something that throws it.
        const subject =
          matcher === 'toThrow' && typeof received !== 'function'
            ? () => {
                throw received;
              }
            : received;
        try {
          (this.isNot ? expect(subject).not : expect(subject))[matcher](...expected);
          return { pass: !this.isNot, message: () => `expected not ${matcher}` };
        } catch (error) {
          return { pass: this.isNot, message: () => error.message };
        }
      },
    ]),
  ),
);
