import jsep from 'jsep';
import { ValidationFailed } from '@app/kernel';

export const CONDITION_MAX = 1024;
const COMPARISONS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=']);
const LOGICAL = new Set(['&&', '||']);
const MAX_DEPTH = 64;

/**
 * Checks a visibility condition: an expression over the visitor's claims such as
 * `visitor.claims.plan == "pro" && !visitor.claims.trial`. It is parsed (with jsep) and its tree walked to allow
 * only what a condition needs: claims (`visitor.claims.…`, also `visitor.claims.unsigned.…`, with dotted or
 * `["quoted"]` access), string, number and boolean literals, comparisons, `&&`, `||`, `!` and parentheses.
 * Nothing is ever evaluated here; sites evaluate conditions against a visitor's claims when they serve a page.
 */
export function checkCondition(field: string, condition: string): string {
  const length = [...condition].length;
  if (length < 1 || length > CONDITION_MAX || condition.trim().length === 0) {
    throw new ValidationFailed(`${field} must have 1 to ${CONDITION_MAX} characters`);
  }
  let tree: jsep.Expression;
  try {
    tree = jsep(condition);
  } catch (error) {
    throw new ValidationFailed(`${field} does not parse: ${(error as Error).message}`);
  }
  walk(field, tree, 0);
  return condition;
}

function walk(field: string, node: jsep.Expression, depth: number): void {
  if (depth > MAX_DEPTH) throw new ValidationFailed(`${field} nests too deeply`);
  switch (node.type) {
    case 'Literal': {
      const value = (node as jsep.Literal).value;
      if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) {
        throw new ValidationFailed(`${field}: only string, number and boolean values may be compared`);
      }
      return;
    }
    case 'Identifier': {
      const name = (node as jsep.Identifier).name;
      if (name === 'true' || name === 'false') return;
      throw new ValidationFailed(`${field}: "${name}" is not a claim; claims are read as visitor.claims.<name>`);
    }
    case 'MemberExpression':
      checkClaim(field, node as jsep.MemberExpression);
      return;
    case 'UnaryExpression': {
      const unary = node as jsep.UnaryExpression;
      if (unary.operator !== '!' && unary.operator !== '-') {
        throw new ValidationFailed(`${field}: the operator "${unary.operator}" is not allowed`);
      }
      walk(field, unary.argument, depth + 1);
      return;
    }
    case 'BinaryExpression': {
      const binary = node as jsep.BinaryExpression;
      if (!COMPARISONS.has(binary.operator) && !LOGICAL.has(binary.operator)) {
        throw new ValidationFailed(`${field}: the operator "${binary.operator}" is not allowed`);
      }
      walk(field, binary.left, depth + 1);
      walk(field, binary.right, depth + 1);
      return;
    }
    default:
      throw new ValidationFailed(`${field}: a ${describe(node.type)} is not allowed in a condition`);
  }
}

function describe(type: string): string {
  return (
    {
      CallExpression: 'function call',
      Compound: 'list of expressions',
      ConditionalExpression: 'conditional (?:)',
      ArrayExpression: 'list',
      ThisExpression: '"this"',
    }[type] ?? type
  );
}

/** `visitor.claims.a.b` or `visitor.claims["a"]`: a path from `visitor.claims`, never anything else. */
function checkClaim(field: string, node: jsep.MemberExpression): void {
  const path: string[] = [];
  let current: jsep.Expression = node;
  while (current.type === 'MemberExpression') {
    const member = current as jsep.MemberExpression;
    const property = member.property;
    if (member.computed) {
      if (property.type !== 'Literal' || typeof (property as jsep.Literal).value !== 'string') {
        throw new ValidationFailed(`${field}: claims are named with quoted strings inside [ ]`);
      }
      path.unshift(String((property as jsep.Literal).value));
    } else {
      path.unshift((property as jsep.Identifier).name);
    }
    current = member.object;
  }
  if (current.type !== 'Identifier' || (current as jsep.Identifier).name !== 'visitor' || path[0] !== 'claims') {
    throw new ValidationFailed(`${field}: only the visitor's claims (visitor.claims.<name>) may be read`);
  }
  if (path.length < 2) throw new ValidationFailed(`${field}: name a claim, as in visitor.claims.<name>`);
}
