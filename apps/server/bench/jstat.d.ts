/** The one part of jstat (CommonJS, no types of its own) the soak uses: the binomial distribution's CDF. */
declare module 'jstat' {
  const jStat: {
    binomial: {
      /** P(X ≤ k) for X ~ Binomial(n, p); k is floored, 0 below 0 and 1 from n up; accurate to 1e-10. */
      cdf(k: number, n: number, p: number): number;
    };
  };
  export default jStat;
}
