import type { AstNode, MaybePromise, ValidationAcceptor } from 'langium';
import { isOperationCancelled, ValidationRegistry } from 'langium';
import { describeCause } from '../pipeline/document-failures.js';
import { Issues } from './issue-codes.js';

/**
 * Validation registry (Langium's `ValidationRegistry` service): Langium's, except that a check that
 * throws is reported as `PIPELINE_SQL_INTERNAL_ERROR` on the node it was checking, naming the cause
 * (Langium reports a message without a code). The other checks still run.
 */
export class PipelineSqlValidationRegistry extends ValidationRegistry {

    protected override async handleException(functionality: () => MaybePromise<void>, messageContext: string, accept: ValidationAcceptor, node: AstNode): Promise<void> {
        try {
            await functionality();
        } catch (error) {
            if (isOperationCancelled(error)) {
                throw error;
            }
            console.error(`${messageContext}:`, error);
            const issue = Issues.InternalError;
            accept('error', issue.message({ step: 'checking', cause: describeCause(error) }), { node, code: issue.code, data: { code: issue.code } });
        }
    }
}
