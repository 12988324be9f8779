/**
 * The names of the run-time message converter (M-CONTENT-UNTYPED), apart from its source: the
 * transforms import them in the helper thread, which must not load the TypeScript compiler that
 * lib/runtime/converter.ts renders the module with.
 */

/** The exported function, and the module's file name without its extension. */
export const CONVERTER_NAME = 'toResponsesInput';
export const CONVERTER_BASENAME = 'to-responses-input';
