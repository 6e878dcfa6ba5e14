import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'util';

// jsdom lacks these; react-router needs them
Object.assign(globalThis, { TextEncoder, TextDecoder });
// jsdom has no layout: scrolling is a no-op
window.scrollTo = (() => undefined) as typeof window.scrollTo;

// A dashboard test is a user's whole flow (typing, waiting for the mocked answers): on a loaded 2-core CI
// machine it took over jest's default 5 s (bots.test.tsx in CI, 2026-11-28). No test asserts speed.
jest.setTimeout(20_000);
