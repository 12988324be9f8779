/**
 * The scanner: candidate files → sites with their kinds, client and outcome → the Plan.
 * It is the single source of truth about what a call site is; transforms only execute the plan.
 */
import path from 'node:path';
import { KINDS, type Kind, type ProjectBoundary } from '../options.js';
import type { ConvertEdit, CreatedFile, Edit, FilePlan, SitePlan } from '../plan.js';
import type { RuleId } from '../rules/ids.js';
import type { FileError, Note, Notice, Provider, SiteRecord, SiteStatus } from '../report/model.js';
import { reasonMessage } from '../rules/reasons.js';
import { ts, isJavaScriptFile, positionOf, enclosingStatement, startOf, propertyNameText, propertyValue, stringValue, literalValue, unwrap, shortText } from './ast.js';
import { type AllowList, type ScanContext, buildSubclassIndex, isProjectFile, locationOf, relativeFile } from './context.js';
import { exportedCompletionsResources, findSites, isChatCompletionsCall, type FoundSite } from './find-sites.js';
import { httpProvider } from './http.js';
import { MAX_NESTING, maxNesting } from './guards.js';
import { createScanProject, syntaxErrors, type CandidateText, type ScanProject } from './project.js';
import { ProjectLayout } from '../project/layout.js';
import { ModuleResolver } from '../project/resolver.js';
import { withSdkNameInText } from '../project/sdk-names.js';
import { mayHoldCallSite } from '../files.js';
import { exportsChatEndpoint, importersOf, runTextReader } from './endpoint-importers.js';
import { CallerSearch, PublishedPackages, exportKey, findCallerFiles, mentionPattern } from './injected.js';
import { ProviderResolver, type ReasonRef } from './provider.js';
import { RequestAnalyzer } from './request.js';
import { ResultAnalyzer } from './results.js';
import { StreamAnalyzer } from './streams.js';
import { ToolsAnalyzer } from './tools.js';
import { SiteAnalysis } from './site.js';
import { siteId } from './site-id.js';
import { invocationsOf } from './indirect.js';
import { resourceCalls, type ResourceCalls } from './resource-calls.js';
import { createCallerSearch } from './caller-search.js';
import { overridingRequestOptions } from './request-options.js';
import { mayParseAutomatically, toolParseRejects } from './auto-parse.js';
import { groupDoubles, migratedFiles, migratedSubjectTest } from './group-doubles.js';
import { findSdkShims, globalTypeNames, readDeclarations, shimFor, type SdkShim } from '../project/sdk-shims.js';
import type { FollowSearch } from './callers.js';
import { TOOL_KEYS } from '../rules/request-params.js';
import { PARSE_NOTE, REASONING_INCLUDE, REPLAY_NOTE, REPLAY_PLAIN_NOTE, REPLAY_STORED_NOTE } from '../rules/results.js';
import { modelFamily } from '../rules/models.js';
import { errorWordingCatcher, parseErrorCatcher } from './parse-errors.js';
import { placeConverters } from '../runtime/placement.js';
import { MESSAGES_CONVERTER, type ConverterModule } from '../runtime/converter.js';
import { TOOLS_CONVERTER } from '../runtime/tools-converter.js';

export interface ScanInput {
  candidates: CandidateText[];
  /** Every source file of the run (absolute paths): where the importers of endpoint constants and the callers of exported functions are looked for. */
  files?: string[];
  /** The component files of the run (.vue, .svelte, .astro): not scanned, but a function they name has callers out of view. */
  components?: string[];
  /** The project's own declaration files (.d.ts): those that declare the SDK are shims (lib/project/sdk-shims.ts). */
  declarations?: string[];
  /**
   * The paths given, absolute (as given and real): a module used from outside them is an edge
   * (W-EDGE), and a new converter module goes only inside them.
   */
  roots?: string[];
  cwd: string;
  /** Where the project ends (Options.boundary); undefined: at the repository top. */
  boundary?: ProjectBoundary;
  tsconfig?: string;
  allow: AllowList;
  only: Kind[];
  skip: Kind[];
  /** Convert messages the scan cannot prove simple at run time (M-CONTENT-UNTYPED); off: report them. */
  runtimeConversion?: boolean;
}

export interface ScanResult {
  plans: FilePlan[];
  /** Converter modules to create (M-CONTENT-UNTYPED), each only if a migrated site imports it. */
  createdFiles: CreatedFile[];
  notices: Notice[];
  errors: FileError[];
  warnings: string[];
  typeAware: boolean;
  /**
   * Files to be written whose package installs the SDK under another name (an npm alias,
   * `"openai-v4": "npm:openai@^4"`): the imports a rewrite adds use that name.
   */
  sdkNames: Map<string, string>;
}

export const IGNORE_MARKER = 'migrate-responses-ignore';

/** Rounds of looking for the callers of injected clients' holders (W-INJECTED), at most. */
const MAX_CALLER_ROUNDS = 3;

/** W-INJECTED state shared by the passes of a run. */
interface Injection {
  callers: CallerSearch;
  published: PublishedPackages;
}

/** What the passes of a run share to find callers: W-INJECTED's, and W-FOLLOW's (`follow`). */
interface Searches extends Injection {
  follow: FollowSearch;
  layout: ProjectLayout;
  /** The project's own declarations of the SDK without `responses`, read once per run. */
  sdkShims: SdkShim[];
  /** Type names the project's global declaration files declare. */
  globalTypes: ReadonlySet<string>;
}

/** A class that extends another (`class X extends Y`, also `extends Mixin([A, B])`). */
const SUBCLASS = /\bclass\b[^{;]*\bextends\b/;

interface Analysed {
  found: FoundSite;
  analysis: SiteAnalysis;
  api: string;
  provider: Provider;
  evidence: string;
  ignored: boolean;
  sf: ts.SourceFile;
}

export function scan(input: ScanInput): ScanResult {
  const errors: FileError[] = [];
  const candidates = input.candidates.filter((c) => {
    if (maxNesting(c.text) <= MAX_NESTING) return true;
    errors.push({ file: relativeFile(input.cwd, c.path), message: `not scanned: brackets nest deeper than ${MAX_NESTING} levels (the parsers would overflow their stack)` });
    return false;
  });
  const layout = new ProjectLayout(input.boundary?.top);
  const modules = new ModuleResolver(layout);
  // The first program holds the files that can hold a site and what they import (import-depth.ts).
  // A pass can find that a question needs more; the next program adds it (trees already parsed
  // are reused) and the files concerned are analysed again:
  //  - the subclasses of a class whose field holds a client (P-SUBCLASS: a subclass may change
  //    the client a base-class method calls through): candidate files that extend something and
  //    name that class;
  //  - the importers of a module that exports the Chat Completions endpoint (raw HTTP);
  //  - the modules that call or construct the holder of an injected client (W-INJECTED), and
  //    what they import;
  //  - the ECMAScript lib, in import tracking, when a message's type needs it.
  const siteFiles = candidates.filter((c) => mayHoldCallSite(c.text));
  const sitePaths = siteFiles.map((c) => c.path);
  const siteSet = new Set(sitePaths.map((p) => path.normalize(p)));
  const roots = [...sitePaths];
  const sources = new Map<string, ts.SourceFile>();
  const texts = new Map(candidates.map((c) => [path.normalize(c.path), c.text]));
  const readRunText = runTextReader(texts);
  const injected: Injection = { callers: new CallerSearch(), published: new PublishedPackages(layout, modules, readRunText) };
  let project = createScanProject({ candidates, roots, tsconfig: input.tsconfig, resolver: modules, sources });
  const follow = createCallerSearch({ files: input.files ?? sitePaths, components: input.components ?? [], read: readRunText, layout, roots: input.roots ?? [input.cwd], cwd: input.cwd, boundary: input.boundary });
  const declarations = readDeclarations(input.declarations ?? []);
  const searches: Searches = { ...injected, follow, layout, sdkShims: findSdkShims(declarations, layout), globalTypes: globalTypeNames(declarations) };
  let pass = analyseFiles(sitePaths, project, modules, input, searches);

  const subclassFiles = subclassCandidates(pass.fieldOwners, candidates.filter((c) => !siteSet.has(path.normalize(c.path))));
  const siteSources = sitePaths.map((p) => project.sourceFile(p)).filter((sf): sf is ts.SourceFile => Boolean(sf));
  const importersOfAny = (exporters: readonly ts.SourceFile[], exportNames?: string[]) =>
    (exporters.length && input.files ? importersOf(new Set(exporters.map((sf) => path.normalize(sf.fileName))), input.files, siteSet, modules, texts, exportNames) : []);
  const resources = siteSources.map((sf) => ({ sf, names: exportedCompletionsResources(sf) })).filter((r) => r.names.length);
  const imported: ImportedExports = {
    endpoint: new Set(importersOfAny(siteSources.filter(exportsChatEndpoint))),
    resource: new Set(importersOfAny(resources.map((r) => r.sf), resources.flatMap((r) => r.names))),
  };
  const importers = [...new Set([...imported.endpoint, ...imported.resource])];
  const importerSet = new Set(importers);
  if (subclassFiles.length || importers.length) {
    roots.push(...subclassFiles, ...importers);
    project = createScanProject({ candidates, roots, tsconfig: input.tsconfig, resolver: modules, sources });
    pass = analyseFiles([...sitePaths, ...importers], project, modules, input, searches, imported);
  }
  // W-INJECTED: a pass asked for the importers of the exported holder of an injected client
  // (injected.ts); W-FOLLOW: a pass asked for the files that name a function a result is returned
  // from or passed to (callers.ts). They are looked for among all the files of the run, loaded with
  // what they import (and the subclass files of classes found since), and the sites are analysed again.
  const expand = new Set<string>();
  const rootSet = new Set(roots.map((r) => path.normalize(r)));
  for (let round = 0; round < MAX_CALLER_ROUNDS && (injected.callers.wanted.size || follow.wanted.size); round++) {
    const wanted = [...injected.callers.wanted.values()];
    injected.callers.wanted.clear();
    const found = wanted.length ? findCallerFiles(wanted, input.files ?? candidates.map((c) => c.path), readRunText) : new Map<string, string[]>();
    // and among the files of its package outside the paths given, loaded like the run's; when they
    // cannot all be read, the export stays unsearched and its holder unproven
    for (const ref of wanted) {
      const pattern = mentionPattern(ref);
      const outside = follow.filesOutside(ref.file, (text) => pattern.test(text));
      if ('why' in outside) found.delete(exportKey(ref));
      else found.get(exportKey(ref))?.push(...outside.map((f) => path.normalize(f)));
    }
    for (const [key, files] of found) injected.callers.searched.set(key, files);
    const followed = [...follow.wanted].map((f) => path.normalize(f));
    follow.wanted.clear();
    const subclasses = subclassCandidates(pass.fieldOwners, candidates.filter((c) => !rootSet.has(path.normalize(c.path))));
    const added = [...new Set([...[...found.values()].flat(), ...followed, ...subclasses.map((f) => path.normalize(f))])].filter((f) => !rootSet.has(f));
    if (!added.length && !wanted.length) break; // nothing new to look at: the answers cannot change
    if (added.length) {
      for (const f of added) {
        rootSet.add(f);
        roots.push(f);
        expand.add(f);
      }
      project = createScanProject({ candidates, roots, tsconfig: input.tsconfig, resolver: modules, sources, expand });
    }
    pass = analyseFiles([...sitePaths, ...importers], project, modules, input, searches, imported);
  }
  // Import tracking leaves out the ECMAScript lib (it costs more than the rest of a typical scan).
  // When a site's messages could not be typed because of it (`input.trim()` has no type without
  // the lib), the files with such sites are analysed again with a program that has it.
  const gaps = new Set(pass.analysed.filter((a) => a.analysis.libTypeGap).map((a) => a.sf.fileName));
  if (gaps.size && !project.typeAware && !project.degraded) {
    project = createScanProject({ candidates, roots, resolver: modules, sources, withLib: true, expand });
    const again = analyseFiles([...gaps], project, modules, input, searches, imported);
    pass = { ...pass, analysed: [...pass.analysed.filter((a) => !gaps.has(a.sf.fileName)), ...again.analysed], assumedDefault: pass.assumedDefault || again.assumedDefault };
  }
  errors.push(...pass.errors);
  // a file the scan read into the program (to follow a client, a value) that does not parse is
  // reported like a site file that does not parse; files it never needed are never parsed
  for (const sf of project.program.getSourceFiles()) {
    if (siteSet.has(path.normalize(sf.fileName)) || importerSet.has(sf.fileName) || !isProjectFile(sf)) continue;
    const problems = syntaxErrors(sf);
    if (problems.length) errors.push({ file: relativeFile(input.cwd, sf.fileName), message: syntaxMessage(problems) });
  }
  const { analysed, mockFiles, assumedDefault } = pass;

  const createdFiles = placeRuntimeConversions(analysed, project, layout, input);
  expectedErrorsInTheWay(analysed, project);
  const plans = decide(analysed, input);
  // doubles of the SDK, and doubles of a migrated group's own modules (group-doubles.ts), once a site migrates
  const migrated = migratedFiles(plans, input.cwd);
  const sdkDoubles = migrated.size ? mockFiles.filter(migratedSubjectTest(migrated, readRunText, modules)) : [];
  const doubled = [...new Set([...sdkDoubles, ...groupDoubles(migrated, input.files ?? [], readRunText, modules)])];
  const notices: Notice[] = doubled.map((file) => ({ file: relativeFile(input.cwd, file), code: 'test-mock', message: reasonMessage('test-mock') }));
  const warnings: string[] = [];
  if (project.degraded) warnings.push(project.degraded);
  if (assumedDefault) {
    warnings.push('Clients built without a baseURL were assumed to reach api.openai.com (P-DEFAULT); the SDK reads OPENAI_BASE_URL at run time, so check it does not point elsewhere in your deployments.');
  }
  const sdkNames = aliasedSdkNames(plans, createdFiles, modules);
  return { plans, createdFiles, notices, errors, warnings, typeAware: project.typeAware, sdkNames };
}

/**
 * The SDK's name for every file a migrated site edits or the run creates, where it is not
 * `openai`; a created converter module imports the SDK's types under that name too.
 */
function aliasedSdkNames(plans: FilePlan[], created: CreatedFile[], modules: ModuleResolver): Map<string, string> {
  const names = new Map<string, string>();
  const files = new Set([
    ...plans.flatMap((p) => p.sites.filter((s) => s.record.status === 'migrated').flatMap((s) => s.edits.map((e) => e.file))),
    ...created.map((c) => c.file),
  ]);
  for (const file of files) {
    const name = modules.sdkNameFor(file);
    if (name !== 'openai') names.set(file, name);
  }
  for (const c of created) {
    const name = names.get(c.file);
    if (name) c.text = withSdkNameInText(c.text, name);
  }
  return names;
}

/**
 * M-CONTENT-UNTYPED, R-TOOLS-UNTYPED: every messages or tools value planned for run-time
 * conversion gets the converter module of its package (lib/runtime/placement.ts) and a note saying
 * where it is; a site whose file cannot have one is reported (`messages-not-local`,
 * `params-not-local:tools`), with why.
 */
function placeRuntimeConversions(analysed: Analysed[], project: ScanProject, layout: ProjectLayout, input: ScanInput): CreatedFile[] {
  return RUN_TIME_CONVERTERS.flatMap((converter) => {
    const edits = analysed.flatMap((a) => a.analysis.edits.filter((e): e is ConvertEdit => e.op === 'convert-messages' && e.of === converter.of).map((edit) => ({ a, edit })));
    if (!edits.length) return [];
    const files = [...new Set(edits.map(({ edit }) => edit.file))].flatMap((file) => {
      const sf = project.sourceFile(file);
      return sf ? [{ file, sf }] : [];
    });
    const { byFile, created } = placeConverters(files, layout, input.roots ?? [], input.cwd, converter.module);
    for (const { a, edit } of edits) {
      const placed = byFile.get(edit.file) ?? { ok: false as const, why: `the file holding the ${converter.of} was not read` };
      if (!placed.ok) {
        converter.report(a.analysis, placed.why);
        continue;
      }
      edit.module = placed.specifier;
      edit.moduleFile = placed.moduleFile;
      a.analysis.note(converter.rule, 'warn', converter.note(relativeFile(input.cwd, placed.moduleFile)));
    }
    return created;
  });
}

/** The run-time converters: which values each converts, its module, and what a site is told. */
const RUN_TIME_CONVERTERS: readonly {
  of: ConvertEdit['of'];
  module: ConverterModule;
  rule: RuleId;
  report(analysis: SiteAnalysis, why: string): void;
  note(moduleFile: string): string;
}[] = [
  {
    of: 'messages', module: MESSAGES_CONVERTER, rule: 'M-CONTENT-UNTYPED',
    report: (analysis, why) => analysis.reason('messages-not-local', why),
    note: (moduleFile) => `Messages from outside this code are converted when the program runs by toResponsesInput() from ${moduleFile} (written once per package by this tool): it drops \`name\`, turns tool turns and content parts into Responses items, and throws on a message with no Responses equivalent instead of sending it.`,
  },
  {
    of: 'tools', module: TOOLS_CONVERTER, rule: 'R-TOOLS-UNTYPED',
    report: (analysis, why) => analysis.reason('params-not-local', `tools: ${why}`),
    note: (moduleFile) => `Tools from outside this code are converted when the program runs by toResponsesTools() from ${moduleFile} (written once per package by this tool): it flattens each function tool, with strict: false where Chat had none, and throws on a custom tool or a definition that is not a Chat function tool instead of sending it.`,
  },
];

interface Pass {
  analysed: Analysed[];
  /** Files with test doubles of chat.completions (N04). */
  mockFiles: string[];
  assumedDefault: boolean;
  /** Classes whose field holds a site's client: their subclasses matter (P-SUBCLASS). */
  fieldOwners: Set<string>;
  /** Site files that do not parse, or whose sites could not be found. */
  errors: FileError[];
}

/**
 * Candidate files that may subclass one of `owners` (a class whose field holds a client): they
 * extend something and name the class (also under an import alias: the import names it). Their
 * own classes may be subclassed in turn, so the search runs until it finds nothing new.
 */
function subclassCandidates(owners: ReadonlySet<string>, candidates: readonly CandidateText[]): string[] {
  const names = new Set(owners);
  const found = new Set<CandidateText>();
  for (let grew = names.size > 0; grew;) {
    grew = false;
    for (const c of candidates) {
      if (found.has(c) || !SUBCLASS.test(c.text) || ![...names].some((n) => c.text.includes(n))) continue;
      found.add(c);
      grew = true;
      for (const m of c.text.matchAll(/\bclass\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]);
    }
  }
  return [...found].map((c) => c.path);
}

/** Files analysed because they import what a site file exports: the endpoint (raw HTTP), a completions resource. */
interface ImportedExports {
  endpoint: ReadonlySet<string>;
  resource: ReadonlySet<string>;
}

/** Find and analyse the sites of these files with this program; syntax and scanner errors go to `errors`. */
function analyseFiles(files: string[], project: ScanProject, modules: ModuleResolver, input: ScanInput, searches: Searches, imported: ImportedExports = { endpoint: new Set(), resource: new Set() }): Pass {
  const ctx: ScanContext = {
    checker: project.checker,
    program: project.program,
    typeAware: project.typeAware,
    cwd: input.cwd,
    allow: input.allow,
    subclassesOf: buildSubclassIndex(project.program, project.checker),
    resolve: (specifier, fromFile) => modules.resolve(specifier, fromFile),
    fieldOwners: new Set(),
    callerSearch: searches.follow,
    runtimeConversion: Boolean(input.runtimeConversion),
    doubles: new Set(),
    analysedFiles: new Set(files.map((f) => path.normalize(f))),
    callers: searches.callers,
    publishedBy: (file) => searches.published.publishedBy(file),
    sdkShims: searches.sdkShims,
    globalTypes: searches.globalTypes,
    freshNames: new WeakMap(),
    layout: searches.layout,
  };
  const resolver = new ProviderResolver(ctx);
  const errors: FileError[] = [];
  const pass: Pass = { analysed: [], mockFiles: [], assumedDefault: false, fieldOwners: ctx.fieldOwners, errors };
  for (const file of files) {
    const sf = project.sourceFile(file);
    if (!sf) continue;
    const problems = syntaxErrors(sf);
    if (problems.length) {
      errors.push({ file: relativeFile(input.cwd, file), message: syntaxMessage(problems) });
      continue;
    }
    let findings;
    try {
      findings = findSites(sf, ctx, imported.endpoint.has(file), imported.resource.has(file));
    } catch (err) {
      errors.push({ file: relativeFile(input.cwd, file), message: `scanner failed: ${(err as Error).message}` });
      continue;
    }
    if (findings.mocks.length) pass.mockFiles.push(file);
    const siteCalls = new Set<ts.Node>(findings.sites.map((s) => s.call));
    for (const found of findings.sites) {
      // containment per site: a throw lists this site as manual (scanner-error) and keeps the unit
      // keys gathered so far, so G-UNIT still blocks the siblings that share its values
      const analysis = new SiteAnalysis(sf.fileName);
      try {
        const result = analyseSite(found, sf, ctx, resolver, (n) => siteCalls.has(n) || isChatCompletionsCall(n), analysis);
        if (!result) continue;
        if (result.assumedDefault) pass.assumedDefault = true;
        pass.analysed.push(result.site);
      } catch (err) {
        pass.analysed.push(failedSite(found, sf, analysis, err));
      }
    }
  }
  for (const file of [...ctx.doubles].sort()) if (!pass.mockFiles.includes(file)) pass.mockFiles.push(file);
  return pass;
}

function syntaxMessage(problems: string[]): string {
  return `syntax error: ${problems[0]}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`;
}

/** A site whose analysis threw: listed, manual, with the error; what was learnt so far is kept. */
function failedSite(found: FoundSite, sf: ts.SourceFile, analysis: SiteAnalysis, err: unknown): Analysed {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 200);
  analysis.reason('scanner-error', message);
  if (analysis.kinds.size === 0) analysis.kinds.add('simple');
  let ignored = false;
  try {
    ignored = hasIgnoreMarker(sf, found);
  } catch {
    // the marker test is plain text work; if even that fails, the site is simply not ignored
  }
  return { found, analysis, api: apiOf(found), provider: 'unknown', evidence: 'not proven: the scanner failed on this site', ignored, sf };
}

function apiOf(found: FoundSite): string {
  if (found.kind === 'http') return 'http';
  if (found.kind === 'v3') return 'createChatCompletion';
  if (found.kind === 'batch') return 'batches.create';
  return `${found.beta ? 'beta.' : ''}chat.completions.${found.method}`;
}


function analyseSite(
  found: FoundSite, sf: ts.SourceFile, ctx: ScanContext, resolver: ProviderResolver, isSite: (n: ts.Node) => boolean, analysis: SiteAnalysis,
): { site: Analysed; assumedDefault: boolean } | undefined {
  let provider: Provider = 'unknown';
  let evidence = '';
  let assumedDefault = false;
  const api = apiOf(found);
  if (found.kind === 'sdk') {
    const resource = found.exportedResource && resourceCalls(found.exportedResource, ctx);
    // an exported resource whose every use is a call the scan finds: those calls are the sites
    if (resource && 'calls' in resource && !found.direct) return undefined;
    if (found.receiver) {
      const client = resolver.resolve(found.receiver);
      if (client.foreign) return undefined; // another library's client (N05)
      provider = client.provider;
      evidence = client.evidence;
      if (client.reason) analysis.reason(client.reason.code, client.reason.detail);
      for (const r of client.otherReasons ?? []) analysis.reason(r.code, r.detail);
      for (const n of client.notes) analysis.note(n.rule, n.level, n.message);
      assumedDefault = client.isDefault;
      if (found.chatAlias) analysis.share('chat', found.chatAlias);
      // the callee rewrite names the client where the alias was used: an expression that builds
      // it (`const { chat } = new OpenAI({ apiKey: await secret() })`) would run at every call
      if (found.chatAlias && !isStableReference(found.receiver)) {
        const built = unwrap(found.receiver);
        const how = ts.isNewExpression(built) || ts.isCallExpression(built) ? `${ts.isNewExpression(built) ? 'new ' : ''}${shortText(built.expression, 30)}(…)` : shortText(built, 30);
        analysis.reason('not-supported-yet', `${found.chatAlias.text} (the resource of a client built in place by ${how}: naming that at the call would build a client per call)`);
      }
    } else {
      evidence = found.receiverProblem ?? 'receiver not followed';
    }
    if (found.receiverProblem) {
      const unfollowed = resource && 'stop' in resource && !found.direct ? `: ${resource.stop}` : '';
      analysis.reason('receiver-not-client', found.receiverProblem + unfollowed);
    }
    if (resource && found.direct) throughExportedResource(found.exportedResource!, found.receiver, resource, analysis);
    if (found.direct && ts.isCallExpression(found.call)) {
      if (found.receiver && resolver.resolve(found.receiver).wrapper) {
        kindsOfParams(found.call, analysis);
        shareToolDefinitions(found.call.arguments[0], analysis, ctx);
      }
      else analyseSdkCall(found.call, found.method, analysis, ctx, isSite);
    } else if (!found.direct) {
      // not rewritten, but every failing reason of its request and result is still listed (G-ATOMIC)
      for (const { call, params } of invocationsOf(found.call, found.methodToken, ctx.checker)) {
        analyseSdkCall(call, found.method, analysis, ctx, isSite, params);
      }
    }
    if (found.method === 'runTools' || found.method === 'runFunctions') {
      analysis.kinds.add('tool-using');
      analysis.reason('run-tools');
    }
    const jsdoc = typeCheckedJsDocChatType(sf, ctx.layout);
    if (jsdoc) analysis.reason('not-supported-yet', jsdoc);
    if (analysis.foreignModel && assumedDefault) {
      provider = 'unknown';
      analysis.reason('provider-unknown', 'model-hint');
    }
    if (found.direct && ts.isCallExpression(found.call) && !found.exportedResource && (found.method === 'create' || found.method === 'parse' || found.method === 'stream')) {
      analysis.edit({
        op: 'callee', rule: found.method === 'parse' ? 'A-PARSE' : found.method === 'stream' ? 'A-STREAM' : 'A-CREATE',
        ...analysis.range(found.callee), method: found.method, receiverText: found.chatAlias && found.receiver ? found.receiver.getText() : undefined,
      });
    }
  } else if (found.kind === 'http') {
    analysis.reason('raw-http');
    const url = httpProvider(found);
    provider = url.provider;
    evidence = url.evidence;
    if (found.body) kindsFromObject(found.body, analysis);
  } else if (found.kind === 'batch') {
    const client = resolver.resolve(found.receiver);
    if (client.foreign) return undefined; // another library's batches (N05)
    // an endpoint not in view may be Chat's only when the client is proven to be the SDK's
    if (found.endpoint === 'unknown' && client.provider === 'unknown') return undefined;
    analysis.reason('batch-api', found.detail);
    if (client.reason) analysis.reason(client.reason.code, client.reason.detail);
    provider = client.provider;
    evidence = client.evidence;
    for (const body of found.lineBodies) kindsFromObject(body, analysis);
  } else {
    analysis.reason('sdk-v3');
    provider = 'openai';
    evidence = `openai v3 OpenAIApi client in ${relativeFile(ctx.cwd, sf.fileName)}`;
    kindsOfParams(found.call, analysis);
  }
  if (analysis.kinds.size === 0) analysis.kinds.add('simple');
  return { site: { found, analysis, api, provider, evidence, ignored: hasIgnoreMarker(sf, found), sf }, assumedDefault };
}

/**
 * A call through an exported completions resource (lib/scan/resource-calls.ts): the calls made
 * through it migrate together, and the const becomes `<client>.responses`; where following
 * stopped, the call is listed with why.
 */
function throughExportedResource(decl: ts.VariableDeclaration, receiver: ts.Expression | undefined, resource: ResourceCalls, analysis: SiteAnalysis): void {
  const name = decl.name.getText();
  if ('stop' in resource) {
    analysis.reason('receiver-not-client', `the completions resource ${name} is exported and not followed: ${resource.stop}`);
    return;
  }
  if (!receiver || !ts.isIdentifier(receiver) || !decl.initializer) {
    analysis.reason('receiver-not-client', `the completions resource ${name} does not hang from a client variable`);
    return;
  }
  analysis.share('completions-resource', decl);
  analysis.edit({ op: 'replace', rule: 'A-CREATE', ...analysis.range(decl.initializer), text: `${receiver.text}.responses` });
}

function analyseSdkCall(
  call: ts.CallExpression, method: string, analysis: SiteAnalysis, ctx: ScanContext, isSite: (n: ts.Node) => boolean, params = call.arguments[0],
): void {
  if (method === 'runTools' || method === 'runFunctions') {
    const object = params && unwrap(params);
    if (object && ts.isObjectLiteralExpression(object)) {
      const stream = literalValue(propertyValue(object.properties.find((p) => propertyNameText(p.name) === 'stream')));
      if (stream?.kind === 'boolean' && stream.value) analysis.kinds.add('streaming');
    }
    shareToolDefinitions(params, analysis, ctx);
    return;
  }
  const shim = shimFor(ctx.sdkShims, path.normalize(call.getSourceFile().fileName));
  if (shim) analysis.reason('not-supported-yet', `the project declares the module 'openai' itself (${relativeFile(ctx.cwd, shim.file)}), with no responses resource: the rewrite would not type-check there`);
  const request = new RequestAnalyzer(ctx, analysis).analyze(call, method, params);
  const options = params === call.arguments[0] ? call.arguments[1] : undefined;
  const overriding = options && overridingRequestOptions(ctx.checker, options);
  if (overriding) analysis.reason('no-equivalent-param', overriding);
  if (method === 'parse') {
    analysis.kinds.add('structured-output');
    const rejected = toolParseRejects(params, ctx.checker);
    if (rejected) analysis.reason('parse-error-semantics', `Chat's parse() threw before sending, on ${rejected} (only strict function tools can be auto-parsed); responses.parse() sends the request`);
  }
  // the stream() helper finalizes auto-parseable input as parse() does, throwing on a cut-off answer
  if (method === 'parse' || (method === 'stream' && mayParseAutomatically(params, ctx.checker))) {
    analysis.note('H-PARSE', 'warn', PARSE_NOTE);
    const catcher = parseErrorCatcher(call, ctx, method === 'parse' ? 'parse()' : 'the stream helper (finalizing as parse() does)');
    if (catcher) analysis.reason('parse-error-semantics', catcher);
  }
  if (request.stream === 'yes' || method === 'stream') {
    new StreamAnalyzer(ctx, analysis, isSite).analyze(call, method);
    return;
  }
  if (request.stream === 'dynamic') return;
  // a stream's failures are judged by StreamAnalyzer (S-FAILED), whose test covers the wording too
  const wording = errorWordingCatcher(call, ctx);
  if (wording) analysis.reason('not-supported-yet', wording);
  new ResultAnalyzer(ctx, analysis, isSite, method === 'parse').analyze(call);
}

/**
 * A site that stays on Chat (runTools, a wrapper's call) still passes its tool definitions: the
 * unit keys the tools analysis would give it join it to every site that reshapes the same
 * definitions, so W-ALL-OR-NOTHING leaves them as they are. Its edits and reasons are discarded.
 */
function shareToolDefinitions(params: ts.Expression | undefined, analysis: SiteAnalysis, ctx: ScanContext): void {
  const object = params && unwrap(params);
  if (!object || !ts.isObjectLiteralExpression(object)) return;
  const tools = propertyValue(object.properties.find((p) => propertyNameText(p.name) === 'tools'));
  if (!tools) return;
  const probe = new SiteAnalysis(analysis.file);
  new ToolsAnalyzer(ctx, probe).tools(tools);
  for (const key of probe.unitKeys) analysis.unitKeys.add(key);
}

/** Kinds from an inline params object only (wrappers keep their own params and results). */
function kindsOfParams(call: ts.CallExpression, analysis: SiteAnalysis): void {
  const params = call.arguments[0] && unwrap(call.arguments[0]);
  if (params && ts.isObjectLiteralExpression(params)) kindsFromObject(params, analysis);
}

/** Kinds of a raw request body or a v3 params object (K- rules on the keys alone). */
function kindsFromObject(obj: ts.ObjectLiteralExpression, analysis: SiteAnalysis): void {
  for (const p of obj.properties) {
    const key = propertyNameText(p.name);
    if (!key) continue;
    if (TOOL_KEYS.has(key)) analysis.kinds.add('tool-using');
    if (key === 'stream') {
      const v = literalValue(propertyValue(p));
      if (!(v?.kind === 'boolean' && !v.value)) analysis.kinds.add('streaming');
    }
    if (key === 'response_format') {
      const type = stringValue(propertyValue(ts.isPropertyAssignment(p) && ts.isObjectLiteralExpression(unwrap(p.initializer))
        ? (unwrap(p.initializer) as ts.ObjectLiteralExpression).properties.find((q) => propertyNameText(q.name) === 'type') : undefined));
      if (type !== 'text') analysis.kinds.add('structured-output');
    }
  }
}

/** `// migrate-responses-ignore` on the line above the statement or the call. */
function hasIgnoreMarker(sf: ts.SourceFile, found: FoundSite): boolean {
  const statement = enclosingStatement(found.call);
  const lines = new Set<number>();
  for (const node of [statement, found.call, found.methodToken]) {
    const line = sf.getLineAndCharacterOfPosition(startOf(node)).line;
    lines.add(line - 1);
    lines.add(line);
  }
  for (const line of lines) {
    if (line < 0) continue;
    if (new RegExp(`//\\s*${IGNORE_MARKER}\\b`).test(lineText(sf, line))) {
      // on the call's own line, only a comment before the call counts as "above"
      return true;
    }
  }
  return false;
}

/**
 * A line a site's rewrite changes, under a `// @ts-expect-error`: the directive was written for an
 * error of the Chat types, which the Responses types may not have, and an unused directive fails
 * tsc. The site is reported (`ts-expect-error`), named after the first edit in the way.
 */
function expectedErrorsInTheWay(analysed: Analysed[], project: ScanProject): void {
  for (const a of analysed) {
    if (a.ignored || a.analysis.reasons.length) continue;
    const hit = a.analysis.edits.find((e) => {
      const sf = project.sourceFile(e.file);
      return sf && linesOf(sf, e.start, e.end).some((line) => line > 0 && EXPECT_ERROR.test(lineText(sf, line - 1)));
    });
    if (hit) a.analysis.reason('ts-expect-error', hit.op === 'convert-messages' ? hit.of : EDIT_WORDS[hit.op] ?? hit.op);
  }
}

/** The directive as TypeScript reads it: `//`, `///`, `/*`, `/**`, or a block comment's ` * ` line. */
const EXPECT_ERROR = /^\s*(\/\/\/?|\/\*+|\*+)\s*@ts-expect-error\b/;

/** What a reviewer calls the rewrite an edit belongs to (a run-time conversion: what it converts). */
const EDIT_WORDS: Partial<Record<Edit['op'], string>> = {
  request: 'params', callee: 'call', messages: 'messages', message: 'messages', tool: 'tools',
  'tool-choice': 'tool_choice', chain: 'result read', finish: 'finish_reason', replace: 'result read', operator: 'result read',
  pattern: 'result read', rename: 'result read', retype: 'type', 'stream-read': 'stream read', 'stream-guard': 'stream loop',
  replay: 'history', format: 'response_format', 'helper-call': 'helper', 'wrap-request': 'call',
};

function linesOf(sf: ts.SourceFile, start: number, end: number): number[] {
  const first = sf.getLineAndCharacterOfPosition(start).line;
  const last = sf.getLineAndCharacterOfPosition(Math.max(start, end)).line;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The text of a 0-based line, its line break included. */
function lineText(sf: ts.SourceFile, line: number): string {
  const starts = sf.getLineStarts();
  return sf.text.slice(starts[line], starts[line + 1] ?? sf.text.length);
}

// ---- deciding the outcome ----------------------------------------------------------------------

/**
 * T-REASONING-REPLAY: a unit that replays its output with store: false asks a reasoning model for
 * its encrypted reasoning, and asks nothing of a model that does not reason (the API rejects the
 * include there); a call whose model is not known either way is reported.
 */
function reasoningReplay(units: ReadonlyMap<unknown, Analysed[]>): void {
  for (const members of units.values()) {
    if (!members.some((m) => m.analysis.replay)) continue;
    for (const m of members) {
      const site = m.analysis;
      if (site.storesResponses) {
        site.note('T-REASONING-REPLAY', 'info', REPLAY_STORED_NOTE);
        continue;
      }
      const models = site.models;
      if ('unknown' in models) {
        site.reason('replay-model-unknown', models.unknown);
        continue;
      }
      const families = new Set(models.map(modelFamily));
      if (families.size !== 1 || families.has('unknown')) {
        site.reason('replay-model-unknown', `model ${models.join(' or ')}`);
      } else if (families.has('reasoning')) {
        for (const e of site.edits) if (e.op === 'request' && e.top) e.addInclude = [REASONING_INCLUDE];
        site.note('T-REASONING-REPLAY', 'warn', REPLAY_NOTE);
      } else {
        site.note('T-REASONING-REPLAY', 'info', REPLAY_PLAIN_NOTE(models.join(' or ')));
      }
    }
  }
}

function decide(analysed: Analysed[], input: ScanInput): FilePlan[] {
  uncoveredCalls(analysed, input);
  const { units, unitOf } = unitsOf(analysed);
  reasoningReplay(units);
  const status = new Map<Analysed, SiteStatus>();
  const reasons = new Map<Analysed, ReasonRef[]>();
  for (const a of analysed) {
    reasons.set(a, a.ignored ? [] : [...a.analysis.reasons]);
    if (a.ignored) status.set(a, 'ignored');
    else if (a.analysis.reasons.length) status.set(a, 'manual');
    else if (isFilteredOut(a.analysis.kinds, input)) status.set(a, 'skipped');
    else status.set(a, 'migrated');
  }
  // G-UNIT: a unit migrates together or not at all
  for (const members of units.values()) {
    const blocker = members.find((m) => status.get(m) !== 'migrated');
    if (!blocker) continue;
    for (const m of members) {
      if (status.get(m) !== 'migrated') continue;
      status.set(m, 'manual');
      reasons.get(m)!.push({ code: 'unit-blocked', detail: siteLocation(blocker, input.cwd) });
    }
  }
  const byFile = new Map<string, SitePlan[]>();
  analysed.forEach((a) => {
    const sf = a.sf;
    const pos = positionOf(sf, startOf(a.found.methodToken));
    const record: SiteRecord = {
      id: siteId(relativeFile(input.cwd, sf.fileName), a.api, a.found.call),
      file: relativeFile(input.cwd, sf.fileName),
      line: pos.line,
      column: pos.column,
      api: a.api,
      kinds: KINDS.filter((k) => a.analysis.kinds.has(k)),
      client: { provider: a.provider, evidence: a.evidence },
      status: status.get(a)!,
      reasons: reasons.get(a)!.map((r) => ({ code: r.code, ...(r.detail !== undefined ? { detail: r.detail } : {}), message: reasonMessage(r.code, r.detail) })),
      notes: status.get(a) === 'migrated' ? a.analysis.notes : [],
    };
    const groupFiles = [...new Set(units.get(unitOf.get(a)!)!.flatMap((m) => m.analysis.edits.map((e) => e.file)))]
      .filter((f) => f !== sf.fileName).map((f) => relativeFile(input.cwd, f)).sort();
    if (groupFiles.length && status.get(a) === 'migrated') record.groupFiles = groupFiles;
    const plan: SitePlan = {
      record,
      file: sf.fileName,
      callStart: startOf(a.found.call),
      statementStart: startOf(enclosingStatement(a.found.call)),
      unit: unitOf.get(a)!,
      edits: a.analysis.edits,
    };
    const list = byFile.get(sf.fileName) ?? [];
    list.push(plan);
    byFile.set(sf.fileName, list);
  });
  return [...byFile.entries()].map(([file, sites]) => ({
    file,
    sites: sites.sort((x, y) => x.record.line - y.record.line || x.record.column - y.record.column),
  }));
}

function isFilteredOut(kinds: Set<Kind>, input: ScanInput): boolean {
  const list = [...kinds];
  if (input.only.length && !list.some((k) => input.only.includes(k))) return true;
  if (input.skip.length && list.some((k) => input.skip.includes(k))) return true;
  return false;
}

function siteLocation(a: Analysed, cwd: string): string {
  const pos = positionOf(a.sf, startOf(a.found.methodToken));
  return `${relativeFile(cwd, a.sf.fileName)}:${pos.line}:${pos.column}`;
}

/** Union sites that share a binding (G-UNIT). */
/**
 * W-FOLLOW into a parameter holds only when every call of the function passes a followed result:
 * a call the sites do not reach passes something else, and the function's reads cannot change.
 */
function uncoveredCalls(analysed: Analysed[], input: ScanInput): void {
  const reached = new Map<string, Set<ts.Node>>();
  for (const a of analysed) {
    for (const [key, feed] of a.analysis.feeds) {
      const set = reached.get(key) ?? new Set<ts.Node>();
      for (const call of feed.reached) set.add(call);
      reached.set(key, set);
    }
  }
  for (const a of analysed) {
    for (const [key, feed] of a.analysis.feeds) {
      const missed = feed.calls.find((c) => !reached.get(key)!.has(c));
      if (!missed) continue;
      const at = `${relativeFile(input.cwd, missed.getSourceFile().fileName)}:${missed.getSourceFile().getLineAndCharacterOfPosition(missed.getStart()).line + 1}`;
      if (feed.tools) a.analysis.reason('params-not-local', `tools (${feed.callee}, also passed at ${at}, where no migrated call reads it)`);
      else a.analysis.reason('result-escapes', `argument: ${feed.callee} is also called with another value (${at})`);
    }
  }
}

function unitsOf(analysed: Analysed[]): { units: Map<number, Analysed[]>; unitOf: Map<Analysed, number> } {
  const parent = analysed.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i])));
  const byKey = new Map<string, number>();
  analysed.forEach((a, i) => {
    for (const key of a.analysis.unitKeys) {
      const other = byKey.get(key);
      if (other === undefined) byKey.set(key, i);
      else parent[find(i)] = find(other);
    }
  });
  const units = new Map<number, Analysed[]>();
  analysed.forEach((a, i) => {
    const root = find(i);
    const list = units.get(root) ?? [];
    list.push(a);
    units.set(root, list);
  });
  return { units, unitOf: new Map(analysed.map((a, i) => [a, find(i)])) };
}

export type { Note };

/**
 * A JavaScript file that TypeScript checks (`// @ts-check`) and whose JSDoc names a Chat type
 * (`@type {import('openai').…ChatCompletionMessageParam[]}`): the rewrite retypes TypeScript
 * annotations, not JSDoc, so its checks would fail (probe of JavaScript backends). Why, or undefined.
 */
function typeCheckedJsDocChatType(sf: ts.SourceFile, layout: ProjectLayout): string | undefined {
  if (!isJavaScriptFile(sf)) return undefined;
  const opening = /^\s*(?:\/\/[^\n]*\n\s*)*\/\/\s*@ts-(check|nocheck)\b/.exec(sf.text)?.[1];
  // a tsconfig's (or jsconfig's) checkJs checks it too, unless the file opts out (probe of CommonJS bots)
  const how = opening === 'check' ? '// @ts-check' : opening === undefined && layout.configFor(sf.fileName)?.options.checkJs === true ? 'checkJs in its tsconfig' : undefined;
  if (!how) return undefined;
  const m = /@(?:type|param|returns?|typedef|property)\s*\{[^}]*\b(ChatCompletion\w*)/.exec(sf.text);
  return m ? `JSDoc types name ${m[1]} in a JavaScript file TypeScript checks (${how}), and the rewrite retypes only TypeScript annotations` : undefined;
}

/** A name, `this`, or a property chain of them: naming it again reads the same client, with no effect. */
function isStableReference(e: ts.Expression): boolean {
  const v = unwrap(e);
  if (ts.isIdentifier(v) || v.kind === ts.SyntaxKind.ThisKeyword) return true;
  return ts.isPropertyAccessExpression(v) && isStableReference(v.expression);
}
