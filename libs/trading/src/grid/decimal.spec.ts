import fc from 'fast-check';
import {
  addClean,
  ceilToStep,
  decimalsOf,
  floorToStep,
  isMultipleOfStep,
  roundMoney,
  roundTo,
  roundToStep,
  subClean,
} from './decimal';

describe('decimal helpers', () => {
  describe('decimalsOf', () => {
    it.each([
      [1, 0],
      [5, 0],
      [0.1, 1],
      [0.05, 2],
      [0.001, 3],
      [1e-8, 8],
      [2.5e-7, 8],
      [1.25, 2],
    ])('given the step %p, then it has %p decimals', (step, d) => {
      expect(decimalsOf(step)).toBe(d);
    });
  });

  describe('given values with float artefacts', () => {
    it.each([
      ['0.3 down to 0.1', floorToStep(0.3, 0.1), 0.3],
      ['0.7 − 0.4 down to 0.1', floorToStep(0.7 - 0.4, 0.1), 0.3],
      ['0.1 + 0.2 up to 0.1', ceilToStep(0.1 + 0.2, 0.1), 0.3],
      ['3 × 0.1 down to 0.1', floorToStep(3 * 0.1, 0.1), 0.3],
      ['1.005 down to 0.001', floorToStep(1.005, 0.001), 1.005],
      ['0.15 down to 0.05', floorToStep(0.15, 0.05), 0.15],
      ['100 − 7 × 0.1 down to 0.01', floorToStep(100 - 7 * 0.1, 0.01), 99.3],
      ['27350.5 − 120.25 down to 0.1', floorToStep(27350.5 - 120.25, 0.1), 27230.2],
      ['0.000123456 down to 1e-8', floorToStep(0.000123456, 1e-8), 0.00012345],
      ['99 × 1.01 up to 0.01', ceilToStep(99 * 1.01, 0.01), 99.99],
    ])('when %s, then the result is the exact decimal', (_label, actual, expected) => {
      expect(actual).toBe(expected);
    });
  });

  describe('given values between steps', () => {
    it('then floor goes down, ceil goes up and round goes to the nearest', () => {
      expect(floorToStep(12.349, 0.01)).toBe(12.34);
      expect(ceilToStep(12.341, 0.01)).toBe(12.35);
      expect(roundToStep(12.344, 0.01)).toBe(12.34);
      expect(roundToStep(12.346, 0.01)).toBe(12.35);
      expect(floorToStep(17, 5)).toBe(15);
      expect(ceilToStep(17, 5)).toBe(20);
      expect(floorToStep(-0.05, 0.1)).toBe(-0.1);
    });
  });

  describe('roundTo and roundMoney', () => {
    it('when a value sits on a half, then it rounds away from zero', () => {
      expect(roundTo(1.005, 2)).toBe(1.01);
      expect(roundTo(2.675, 2)).toBe(2.68);
      expect(roundTo(-1.005, 2)).toBe(-1.01);
      expect(roundTo(1.5, 0)).toBe(2);
    });
    it('when profit is rounded, then it keeps 1e-8 and never gives -0', () => {
      expect(roundMoney(2.3730300000000004)).toBe(2.37303);
      expect(roundMoney(0.123456789)).toBe(0.12345679);
      expect(Object.is(roundMoney(-1e-12), 0)).toBe(true);
    });
    it('when asked for an impossible number of decimals, then it throws', () => {
      expect(() => roundTo(1, -1)).toThrow(RangeError);
      expect(() => floorToStep(1, 0)).toThrow(RangeError);
    });
  });

  describe('quantity arithmetic', () => {
    it('when a position bought as 0.1 + 0.2 is sold as 0.3, then it is exactly flat', () => {
      expect(addClean(0.1, 0.2)).toBe(0.3);
      expect(subClean(addClean(0.1, 0.2), 0.3)).toBe(0);
      expect(subClean(0.3, 0.1)).toBe(0.2);
    });
  });

  describe('properties', () => {
    const steps = fc.constantFrom(1e-8, 1e-5, 0.001, 0.01, 0.05, 0.1, 0.25, 1, 5, 10);
    const values = fc.double({ min: 1e-6, max: 1e7, noNaN: true, noDefaultInfinity: true });

    it('floor is a multiple of the step, not above x, and less than one step below it', () => {
      fc.assert(
        fc.property(values, steps, (x, step) => {
          fc.pre(x / step < 1e12); // within what a double holds to the step (e.g. 10,000.00000001)
          const f = floorToStep(x, step);
          expect(isMultipleOfStep(f, step)).toBe(true);
          expect(f).toBeLessThanOrEqual(x + step * 1e-3); // float noise is forgiven up to 1/1000 of a step
          expect(x - f).toBeLessThan(step * (1 + 1e-9));
        }),
      );
    });

    it('ceil is a multiple of the step, not below x, and less than one step above it', () => {
      fc.assert(
        fc.property(values, steps, (x, step) => {
          fc.pre(x / step < 1e12);
          const c = ceilToStep(x, step);
          expect(isMultipleOfStep(c, step)).toBe(true);
          expect(c).toBeGreaterThanOrEqual(x - step * 1e-3);
          expect(c - x).toBeLessThan(step * (1 + 1e-9));
        }),
      );
    });

    it('k steps built from integers come back unchanged (no artefacts)', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 10_000_000 }), steps, (k, step) => {
          const x = floorToStep(k * step, step);
          expect(floorToStep(x, step)).toBe(x);
          expect(ceilToStep(x, step)).toBe(x);
          expect(String(x).length).toBeLessThanOrEqual(String(k).length + decimalsOf(step) + 2);
        }),
      );
    });
  });
});
