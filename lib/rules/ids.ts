/**
 * Every rule id of the migration specification, as data. Edits, notes and reason codes name the
 * rule they implement with these ids; the type makes a misspelt id a compile error instead of a
 * crash or a silent mismatch at run time.
 */
export const RULE_IDS = [
  // A-: call-site APIs
  'A-BATCH', 'A-BETA', 'A-CREATE', 'A-HTTP', 'A-PARSE', 'A-RUNTOOLS', 'A-STREAM', 'A-V3',
  // K-: site kinds
  'K-SIMPLE', 'K-STREAM', 'K-STRUCT', 'K-TOOLS',
  // G-: general rules
  'G-ATOMIC', 'G-IDEMP', 'G-IMPORTS', 'G-TRIVIA', 'G-TYPES', 'G-UNIT',
  // W-: whole-program following
  'W-ALL-OR-NOTHING', 'W-EDGE', 'W-FOLLOW', 'W-INJECTED',
  // V-: value resolution
  'V-COND', 'V-LIT', 'V-LOCAL', 'V-MAP', 'V-OPAQUE', 'V-PUSH', 'V-SPREAD',
  // R-: request mapping
  'R-LEGACYFN', 'R-LOGPROBS', 'R-MAXTOK', 'R-MESSAGES', 'R-MODEL', 'R-NOEQUIV', 'R-PARALLEL',
  'R-REASONING', 'R-REQOPTS', 'R-RESPFMT', 'R-SAME', 'R-STORE', 'R-STREAM', 'R-STREAMOPTS',
  'R-STRICT', 'R-TOOLCHOICE', 'R-TOOLS', 'R-TOOLS-UNTYPED', 'R-UNKNOWN', 'R-VERBOSITY', 'R-WEBSEARCH',
  // M-: message mapping
  'M-ASSIST-AUDIO', 'M-ASSIST-REFUSAL', 'M-ASSIST-TEXT', 'M-ASSIST-TOOLCALLS', 'M-CONTENT-UNTYPED',
  'M-FUNCTION', 'M-INPUT', 'M-NAME', 'M-PART-AUDIO', 'M-PART-FILE', 'M-PART-IMAGE', 'M-PART-TEXT',
  'M-REPLAY', 'M-SYSTEM', 'M-TOOL', 'M-TYPES', 'M-USER',
  // O-: result mapping
  'O-ANNOTATIONS', 'O-BIND', 'O-CHOICES', 'O-CONTENT', 'O-CONTENT-NULL', 'O-ESCAPE', 'O-FINISH',
  'O-META', 'O-NOEQUIV', 'O-PARSED', 'O-REFUSAL', 'O-ROLE', 'O-TOOLCALLS', 'O-USAGE',
  // S-: streaming
  'S-DETECT', 'S-END', 'S-FAILED', 'S-FINAL', 'S-FINISH', 'S-HANDOFF', 'S-HELPER', 'S-TEXT',
  'S-TOOLARGS', 'S-USAGE',
  // H-: SDK helpers
  'H-AZURE', 'H-BETA', 'H-PARSE', 'H-RAW', 'H-RUNTOOLS', 'H-STANDARD', 'H-TYPES', 'H-ZODFORMAT',
  'H-ZODFUNCTION',
  // P-: providers
  'P-ALLOW', 'P-AZURE-LEGACY', 'P-AZURE-V1', 'P-DEFAULT', 'P-INJECTED', 'P-KEY-HINT', 'P-MODEL-HINT',
  'P-NONOPENAI', 'P-OPENAI-HOST', 'P-OPTS-SPREAD', 'P-PROVIDER-OPT', 'P-RAWHTTP', 'P-RUNTIME',
  'P-SAFE', 'P-SIGNALS', 'P-SUBCLASS', 'P-UNION', 'P-UNRESOLVED', 'P-V3', 'P-WRAPPER',
  // T-: semantic traps
  'T-ASSIST-PARTS', 'T-AZURE-DEPLOYMENT', 'T-CALLID', 'T-DETAIL', 'T-INSTR-STATE', 'T-JSONWORD',
  'T-MAXTOK-MIN', 'T-NAME', 'T-OUTTEXT-ABSENT', 'T-OUTTEXT-CONCAT', 'T-PARAMS-KEY',
  'T-PARSE-NOTHROW', 'T-REASONING-REPLAY', 'T-STORE', 'T-STREAM-TERMINAL', 'T-STRICT',
  'T-USAGE-SILENT', 'T-WEBSEARCH',
] as const;

export type RuleId = (typeof RULE_IDS)[number];

/** Pattern ids of the catalogue: P01–P32 (patterns) and N01–N10 (look-alikes that are not sites). */
export type PatternId = `P${number}` | `N${number}`;

