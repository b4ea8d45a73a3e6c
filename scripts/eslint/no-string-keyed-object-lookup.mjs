// ESLint rule (type-aware): a lookup in a plain object by a key of type `string` is refused.
//
// A table such as `Record<string, X>` or an object literal, indexed by text that came from SQL, YAML
// or a file name, answers `constructor`, `valueOf`, `toString` or `__proto__` with what
// Object.prototype holds instead of "not found", and an assignment to `table['__proto__']` changes
// the table's prototype. Such lookups go through a `Map`, or are guarded by `Object.hasOwn(table, key)`.
//
// Reported: `object[key]` (read or write) and `key in object` where the object's type has a string
// index signature (and is no array or tuple) and the key's type is `string` (not a union of literal
// strings, not a number).
// Allowed: an access inside the true branch of a condition that tests `Object.hasOwn(object, key)`
// with the same object and key, and objects made by `Object.create(null)`.
import { ESLintUtils } from '@typescript-eslint/utils';
import ts from 'typescript';

const sameText = (sourceCode, a, b) => sourceCode.getText(a) === sourceCode.getText(b);

/** Whether a node is `Object.hasOwn(object, key)` for this object and key. */
function isHasOwnGuard(sourceCode, node, access) {
    return node.type === 'CallExpression'
        && node.callee.type === 'MemberExpression'
        && sourceCode.getText(node.callee) === 'Object.hasOwn'
        && node.arguments.length === 2
        && sameText(sourceCode, node.arguments[0], access.object)
        && sameText(sourceCode, node.arguments[1], access.property);
}

/** Whether a test expression asserts the guard (the guard itself, or a conjunct of it). */
function testAsserts(sourceCode, test, access) {
    if (isHasOwnGuard(sourceCode, test, access)) {
        return true;
    }
    return test.type === 'LogicalExpression' && test.operator === '&&'
        && (testAsserts(sourceCode, test.left, access) || testAsserts(sourceCode, test.right, access));
}

/** Whether the access sits where `Object.hasOwn(object, key)` is known to hold. */
function isGuarded(sourceCode, access) {
    let child = access;
    for (let parent = access.parent; parent; child = parent, parent = parent.parent) {
        if ((parent.type === 'ConditionalExpression' || parent.type === 'IfStatement') && parent.consequent === child && testAsserts(sourceCode, parent.test, access)) {
            return true;
        }
        if (parent.type === 'LogicalExpression' && parent.operator === '&&' && parent.right === child && testAsserts(sourceCode, parent.left, access)) {
            return true;
        }
        if (parent.type === 'FunctionDeclaration' || parent.type === 'FunctionExpression' || parent.type === 'ArrowFunctionExpression') {
            return false;
        }
    }
    return false;
}

/** Whether a type is a union member set that is only string literals (a typed key, safe). */
function isPlainString(type) {
    if (type.isUnion()) {
        return type.types.some(isPlainString);
    }
    return (type.flags & ts.TypeFlags.String) !== 0 || (type.flags & ts.TypeFlags.TemplateLiteral) !== 0;
}

function hasStringIndex(checker, type) {
    if (type.isUnion()) {
        return type.types.some(t => hasStringIndex(checker, t));
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
        return false;
    }
    return type.getStringIndexType() !== undefined;
}

export default ESLintUtils.RuleCreator.withoutDocs({
    meta: {
        type: 'problem',
        messages: {
            lookup: 'Lookup in a plain object by a string key: `{{key}}` may be "constructor" or "__proto__". Use a Map, or guard it with Object.hasOwn({{object}}, {{key}}).',
            inOperator: '`{{key}} in {{object}}` is true for "constructor" and "toString": use a Map, or Object.hasOwn({{object}}, {{key}}).',
        },
        schema: [],
    },
    defaultOptions: [],
    create(context) {
        const services = ESLintUtils.getParserServices(context);
        const checker = services.program.getTypeChecker();
        const sourceCode = context.sourceCode;
        return {
            MemberExpression(node) {
                if (!node.computed || node.property.type === 'Literal') {
                    return;
                }
                const keyType = services.getTypeAtLocation(node.property);
                if (!isPlainString(keyType)) {
                    return;
                }
                const objectType = services.getTypeAtLocation(node.object);
                if (!hasStringIndex(checker, objectType) || isGuarded(sourceCode, node)) {
                    return;
                }
                context.report({ node, messageId: 'lookup', data: { key: sourceCode.getText(node.property), object: sourceCode.getText(node.object) } });
            },
            BinaryExpression(node) {
                if (node.operator !== 'in' || node.left.type === 'PrivateIdentifier' || !isPlainString(services.getTypeAtLocation(node.left))) {
                    return;
                }
                if (hasStringIndex(checker, services.getTypeAtLocation(node.right))) {
                    context.report({ node, messageId: 'inOperator', data: { key: sourceCode.getText(node.left), object: sourceCode.getText(node.right) } });
                }
            },
        };
    },
});
