import type { Rule } from 'eslint';

/** See no-string-keyed-object-lookup.mjs. */
declare const rule: Rule.RuleModule;
export default rule;
