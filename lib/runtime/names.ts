/**
 * The names of the run-time converters (M-CONTENT-UNTYPED, R-TOOLS-UNTYPED), apart from their sources: the
 * transforms import them in the helper thread, which must not load the TypeScript compiler that
 * lib/runtime/converter.ts renders the module with.
 */

/** The exported function, and the module's file name without its extension. */
export const CONVERTER_NAME = 'toResponsesInput';
export const CONVERTER_BASENAME = 'to-responses-input';

/** The tools converter (R-TOOLS-UNTYPED): its function and file name. */
export const TOOLS_CONVERTER_NAME = 'toResponsesTools';
export const TOOLS_CONVERTER_BASENAME = 'to-responses-tools';
