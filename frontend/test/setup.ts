import '@testing-library/jest-dom';
import { TextDecoder, TextEncoder } from 'util';

// jsdom lacks these; react-router needs them
Object.assign(globalThis, { TextEncoder, TextDecoder });
// jsdom has no layout: scrolling is a no-op
window.scrollTo = (() => undefined) as typeof window.scrollTo;
