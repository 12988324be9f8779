/** Questions about the static type of an expression, answered by syntax first, the checker second. */
import { ts, unwrap, stringValue } from './ast.js';
import { aliasTarget, declarationOf } from './bindings.js';

export type Answer = 'yes' | 'no' | 'unknown';

/** "string-typed" per docs/migration-spec.md §1.5: `string`, a string-literal union, a template or a concatenation. */
export function isStringTyped(checker: ts.TypeChecker, expression: ts.Expression): Answer {
  const e = unwrap(expression);
  if (stringValue(e) !== undefined || ts.isTemplateExpression(e)) return 'yes';
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const l = isStringTyped(checker, e.left);
    const r = isStringTyped(checker, e.right);
    if (l === 'yes' || r === 'yes') return 'yes';
  }
  if (ts.isIdentifier(e)) {
    const decl = declarationOf(checker, e);
    if (decl && ts.isVariableDeclaration(decl) && decl.initializer && !decl.type && (decl.parent.flags & ts.NodeFlags.Const)) {
      const viaInit = isStringTyped(checker, decl.initializer);
      if (viaInit !== 'unknown') return viaInit;
    }
  }
  return typeIsString(checker, checker.getTypeAtLocation(e));
}

export function typeIsString(checker: ts.TypeChecker, type: ts.Type): Answer {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return 'unknown';
  if (isErrorType(type)) return 'unknown';
  if (type.flags & ts.TypeFlags.StringLike) return 'yes';
  if (type.isUnion()) {
    const parts = type.types.map((t) => typeIsString(checker, t));
    if (parts.every((p) => p === 'yes')) return 'yes';
    if (parts.includes('unknown')) return 'unknown';
    return 'no';
  }
  return 'no';
}

/** The checker's error type (an unresolved import in import-tracking mode) behaves like `any`. */
export function isErrorType(type: ts.Type): boolean {
  return (type as { intrinsicName?: string }).intrinsicName === 'error';
}

/** A type that says nothing of its value: `any`, `unknown`, or the error type. */
export function isUntyped(type: ts.Type): boolean {
  return Boolean(type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) || isErrorType(type);
}

/**
 * The import specifier that binds a name (`import type { ChatCompletionMessageParam as Msg }`),
 * read through the checker whether or not the module resolves; undefined for any other binding.
 */
export function importSpecifierOf(checker: ts.TypeChecker, name: ts.EntityName): ts.ImportSpecifier | undefined {
  const declared = checker.getSymbolAtLocation(ts.isQualifiedName(name) ? name.right : name)?.declarations?.[0];
  return declared && ts.isImportSpecifier(declared) ? declared : undefined;
}

export const SIMPLE_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/** Whether every value of a role expression is one of the simple message roles. */
export function isSimpleRole(checker: ts.TypeChecker, expression: ts.Expression): Answer {
  const literal = stringValue(expression);
  if (literal !== undefined) return SIMPLE_ROLES.has(literal) ? 'yes' : 'no';
  const type = checker.getTypeAtLocation(unwrap(expression));
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || isErrorType(type)) return 'unknown';
  const parts = type.isUnion() ? type.types : [type];
  if (parts.every((t) => t.isStringLiteral() && SIMPLE_ROLES.has(t.value))) return 'yes';
  return 'no';
}

/** Names of Chat message types: an annotation that uses one says the contents may need reshaping. */
export const CHAT_MESSAGE_TYPES = /\bChatCompletion(Message|SystemMessage|UserMessage|AssistantMessage|DeveloperMessage|ToolMessage|FunctionMessage|ContentPart\w*)Param\b|\bChatCompletionContentPart\b/;

/**
 * Whether a type annotation names Chat message types: by their names (CHAT_MESSAGE_TYPES), or
 * through an import under another name (`ChatCompletionMessageParam as Msg`) or a project alias
 * (`type Message = ChatCompletionMessageParam`, `type AIMessage = ChatCompletionUserMessageParam
 * | …`), also as the element of an array type. A renamed Chat type left in place makes the
 * migrated `input` fail tsc (probe of TypeScript apps).
 */
export function namesChatMessageType(checker: ts.TypeChecker, node: ts.TypeNode, depth = 0): boolean {
  if (CHAT_MESSAGE_TYPES.test(node.getText())) return true;
  if (depth > 4) return false;
  if (ts.isParenthesizedTypeNode(node) || ts.isTypeOperatorNode(node)) return namesChatMessageType(checker, node.type, depth + 1);
  if (ts.isArrayTypeNode(node)) return namesChatMessageType(checker, node.elementType, depth + 1);
  if (ts.isUnionTypeNode(node)) return node.types.some((t) => namesChatMessageType(checker, t, depth + 1));
  if (!ts.isTypeReferenceNode(node)) return false;
  if (node.typeArguments?.length === 1 && /^(Readonly)?Array$/.test(node.typeName.getText())) return namesChatMessageType(checker, node.typeArguments[0], depth + 1);
  const declared = checker.getSymbolAtLocation(ts.isQualifiedName(node.typeName) ? node.typeName.right : node.typeName)?.declarations?.[0];
  if (!declared) return false;
  // `import type { ChatCompletionMessageParam as Msg }`: the name imported, whether or not the
  // program resolves the SDK's declarations
  const specifier = importSpecifierOf(checker, node.typeName);
  if (specifier && CHAT_MESSAGE_TYPES.test((specifier.propertyName ?? specifier.name).text)) return true;
  const decl = aliasTarget(checker, declared) ?? declared;
  const name = (decl as { name?: ts.Node }).name;
  if (name && ts.isIdentifier(name) && CHAT_MESSAGE_TYPES.test(name.text)) return true;
  return ts.isTypeAliasDeclaration(decl) && namesChatMessageType(checker, decl.type, depth + 1);
}

/**
 * A type derived from the Chat method itself (`Parameters<typeof openai.chat.completions.create>[0]
 * ["messages"][number]`), written here or through an alias: no retype of its name fits it to the
 * Responses call (probe of TypeScript-heavy code). The TypeQuery node, or undefined.
 */
/** `typeof openai.chat.completions.create` (or `.parse`, `.stream`). */
export function isChatMethodQuery(n: ts.Node): n is ts.TypeQueryNode {
  return ts.isTypeQueryNode(n) && /\bcompletions\.(?:create|parse|stream)$/.test(n.exprName.getText().replace(/\s+/g, ''));
}

export function chatMethodTypeQuery(checker: ts.TypeChecker, node: ts.TypeNode, depth = 0): ts.TypeQueryNode | undefined {
  let found: ts.TypeQueryNode | undefined;
  const visit = (n: ts.Node): void => {
    if (found) return;
    if (isChatMethodQuery(n)) found = n;
    else if (ts.isTypeReferenceNode(n) && depth < 4) {
      const declared = checker.getSymbolAtLocation(ts.isQualifiedName(n.typeName) ? n.typeName.right : n.typeName)?.declarations?.[0];
      const decl = declared && (aliasTarget(checker, declared) ?? declared);
      if (decl && ts.isTypeAliasDeclaration(decl) && !decl.getSourceFile().isDeclarationFile) found = chatMethodTypeQuery(checker, decl.type, depth + 1);
    }
    if (!found) ts.forEachChild(n, visit);
  };
  visit(node);
  return found;
}

/**
 * Can every element of this message array be passed to `input` unchanged? Proof is a declared
 * element type of simple roles with string content (M-INPUT); a Chat message type is not proof.
 */
export function messageElementsAreSimple(checker: ts.TypeChecker, expression: ts.Expression): Answer {
  const e = unwrap(expression);
  const annotation = declaredType(checker, e);
  if (annotation && namesChatMessageType(checker, annotation)) return 'no';
  const type = checker.getTypeAtLocation(e);
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || isErrorType(type)) return 'unknown';
  const element = arrayElementType(checker, type);
  if (!element) return 'unknown';
  return messageTypeIsSimple(checker, element);
}

export function messageTypeIsSimple(checker: ts.TypeChecker, element: ts.Type): Answer {
  if (element.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown) || isErrorType(element)) return 'unknown';
  const members = element.isUnion() ? element.types : [element];
  for (const m of members) {
    const role = m.getProperty('role');
    const content = m.getProperty('content');
    if (!role || !content) return 'no';
    const extra = m.getProperties().filter((p) => p.name !== 'role' && p.name !== 'content');
    if (extra.length) return 'no';
    const roleType = checker.getTypeOfSymbol(role);
    const roles = roleType.isUnion() ? roleType.types : [roleType];
    if (!roles.every((t) => t.isStringLiteral() && SIMPLE_ROLES.has(t.value))) return 'no';
    if (typeIsString(checker, checker.getTypeOfSymbol(content)) !== 'yes') return 'no';
  }
  return 'yes';
}

function arrayElementType(checker: ts.TypeChecker, type: ts.Type): ts.Type | undefined {
  if (checker.isArrayType(type) || checker.isTupleType(type)) {
    const args = checker.getTypeArguments(type as ts.TypeReference);
    return args.length === 1 ? args[0] : undefined;
  }
  const index = type.getNumberIndexType();
  return index ?? undefined;
}

/** The type annotation written on the declaration an identifier refers to. */
export function declaredType(checker: ts.TypeChecker, e: ts.Expression): ts.TypeNode | undefined {
  if (!ts.isIdentifier(e)) return undefined;
  const decl = declarationOf(checker, e);
  if (decl && (ts.isVariableDeclaration(decl) || ts.isParameter(decl) || ts.isPropertyDeclaration(decl) || ts.isPropertySignature(decl))) {
    return decl.type;
  }
  return undefined;
}
