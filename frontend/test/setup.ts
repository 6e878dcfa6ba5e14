import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'util';

// jsdom lacks these; react-router needs them
Object.assign(globalThis, { TextEncoder, TextDecoder });
// jsdom has no layout: scrolling is a no-op
window.scrollTo = (() => undefined) as typeof window.scrollTo;

// A dashboard test is a user's whole flow (typing, waiting for the mocked answers): on a loaded 2-core CI
// machine it took over jest's default 5 s (bots.test.tsx in CI, 2026-11-28). No test asserts speed.
jest.setTimeout(20_000);

// findBy*/waitFor wait for what the user would see; on a loaded machine the mocked answers and React's
// renders took past the library's default 1 s (botPage.test.tsx "a bot that failed because the venue
// rejected its key" failed so in a fresh-clone run on a busy machine: issue 42). A verdict never
// depends on how fast the machine is: wait up to 10 s, as long as needed and no longer.
import { configure } from '@testing-library/react';
configure({ asyncUtilTimeout: 10_000 });
