/* The arguments of `npm run republish` (issue 41), as an operator types them. */
import { parseRepublishArgs } from './republish';

describe('npm run republish arguments', () => {
  it('reads its arguments as an operator types them, and refuses what is not a position', () => {
    expect(parseRepublishArgs([])).toEqual({});
    expect(parseRepublishArgs(['--from', '10', '--to=200', '--batch', '1000'])).toEqual({ from: 10n, to: 200n, batch: 1000 });
    expect(() => parseRepublishArgs(['--from', '-3'])).toThrow(/whole number/);
    expect(() => parseRepublishArgs(['--from', '0'])).toThrow(/1 or more/);
    expect(() => parseRepublishArgs(['--to', '5', '--from', '9'])).toThrow(/before --from/);
    expect(() => parseRepublishArgs(['--batch', '0'])).toThrow(/1 to 5000/);
    expect(() => parseRepublishArgs(['--topic', 'x'])).toThrow(/Unknown argument --topic/);
  });
});
