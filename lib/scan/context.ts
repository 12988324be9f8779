/** What every part of the scanner needs to know about the run. */
import type { SdkShim } from '../project/sdk-shims.js';
import type { AllowList } from '../allow.js';
import { relativePath } from '../files.js';
import { ts } from './ast.js';
import type { BindingScope } from './bindings.js';
import type { FollowSearch } from './callers.js';
import type { CallerSearch } from './injected.js';
import { mixinClassOf } from './mixins.js';
import type { ProjectLayout } from '../project/layout.js';

export type { AllowList };

export interface ScanContext extends BindingScope {
  checker: ts.TypeChecker;
  program: ts.Program;
  typeAware: boolean;
  cwd: string;
  allow: AllowList;
  /** Classes in project files that extend the given class. */
  subclassesOf(cls: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration[];
  /**
   * Names of the classes whose field held a client while this pass ran: the scan loads the files
   * that may subclass them and runs again when any is missing from the program.
   */
  fieldOwners: Set<string>;
  /** Finding the callers of a function a result is returned from (W-FOLLOW); absent in unit tests. */
  callerSearch?: FollowSearch;
  /**
   * Messages the scanner cannot prove simple are converted at run time (M-CONTENT-UNTYPED) instead
   * of reported `messages-not-local`; off with --no-runtime-conversion.
   */
  runtimeConversion?: boolean;
  /**
   * W-INJECTED: the importers of exports looked for (and loaded), and the exports a pass asks
   * for; the scan looks for those and runs again (lib/scan/injected.ts).
   */
  callers: CallerSearch;
  /**
   * Files that pass a test double (N04) to the holder of an injected client proven by its other
   * callers: the double still imitates chat.completions (a `test-mock` notice).
   */
  doubles: Set<string>;
  /** The project's own declarations of the SDK without `responses` (lib/project/sdk-shims.ts). */
  sdkShims: readonly SdkShim[];
  /** Type names the project's global declaration files declare (globalTypeNames); absent in unit tests. */
  globalTypes?: ReadonlySet<string>;
  /**
   * The names the rewrite gave out per function scope (O-BIND's fresh `response`): a pass's own,
   * since a pass that runs again on the same trees would otherwise see its first run's names as taken.
   */
  freshNames: WeakMap<ts.Node, Set<string>>;
  /** The files this pass looks for sites in (absolute, normalised); absent in unit tests. */
  analysedFiles?: ReadonlySet<string>;
  /** W-EDGE: the published package whose public entry points reach a file, if one does. */
  publishedBy(file: string): string | undefined;
  /** The run's packages and configurations (package.json, tsconfig/jsconfig), read once per folder. */
  layout: ProjectLayout;
}

export const relativeFile = relativePath;

/** `src/client.ts:3` for a node. */
export function locationOf(ctx: Pick<ScanContext, 'cwd'>, node: ts.Node): string {
  const sf = node.getSourceFile();
  const { line } = sf.getLineAndCharacterOfPosition(node.getStart());
  return `${relativeFile(ctx.cwd, sf.fileName)}:${line + 1}`;
}

export function isProjectFile(sf: ts.SourceFile): boolean {
  return !sf.fileName.includes('/node_modules/') && !sf.isDeclarationFile;
}

/** Index `class X extends Y` across project files, built once per run. */
export function buildSubclassIndex(program: ts.Program, checker: ts.TypeChecker): (cls: ts.ClassLikeDeclaration) => ts.ClassLikeDeclaration[] {
  let index: Map<ts.Node, ts.ClassLikeDeclaration[]> | undefined;
  const build = () => {
    index = new Map();
    for (const sf of program.getSourceFiles()) {
      if (!isProjectFile(sf) || !sf.text.includes('extends')) continue;
      const visit = (node: ts.Node): void => {
        if (ts.isClassLike(node)) {
          for (const clause of node.heritageClauses ?? []) {
            if (clause.token !== ts.SyntaxKind.ExtendsKeyword) continue;
            for (const t of clause.types) {
              // `class Bot extends WithChat(Base)`: a subclass of the class the mixin factory returns
              const base = resolveClass(checker, t.expression) ?? mixinClassOf(checker, t.expression);
              if (base) {
                const list = index!.get(base) ?? [];
                list.push(node);
                index!.set(base, list);
              }
            }
          }
        }
        ts.forEachChild(node, visit);
      };
      visit(sf);
    }
  };
  return (cls) => {
    if (!index) build();
    const direct = index!.get(cls) ?? [];
    return direct.flatMap((sub) => [sub, ...(index!.get(sub) ?? [])]);
  };
}

/** The project class declaration an expression names (following imports), if any. */
export function resolveClass(checker: ts.TypeChecker, expr: ts.Expression): ts.ClassLikeDeclaration | undefined {
  let symbol = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr);
  if (!symbol) return undefined;
  if (symbol.flags & ts.SymbolFlags.Alias) {
    try {
      symbol = checker.getAliasedSymbol(symbol);
    } catch {
      return undefined;
    }
  }
  const decl = symbol.declarations?.find((d) => ts.isClassLike(d));
  return decl as ts.ClassLikeDeclaration | undefined;
}
