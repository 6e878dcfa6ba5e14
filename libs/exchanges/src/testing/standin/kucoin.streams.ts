/** Placeholder: filled in by the streams work of issue 39. */
import type { StreamDialectFactory } from './standin.types';

export const kucoinStreams: StreamDialectFactory = () => ({ rest: {}, streams: {} });
