// Holds the router's OpenAPI document to what the router answers: every error answer a test provokes is recorded
// with the operation it came from, and the harness fails (on close) when the operation's document does not list
// it: its status, and a message of that status (`{name}` in a documented message stands for any text). So every
// route test of every area checks the per-operation error lists as a side effect.
import type { NextFunction, Request, RequestHandler, Response } from 'express';

interface Operation { method: string; pattern: RegExp; template: string; messages: Map<string, RegExp[]> }
interface Answer { operation: string; status: number; message: string }

type Document = { paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>> };

/** `- Invalid {field}: {reason}` lines as patterns: literal text, `{name}` as any text. */
function messagePatterns(description: string): RegExp[] {
  return description.split('\n').filter((line) => line.startsWith('- ')).map((line) => {
    const parts = line.slice(2).split(/\{[^}]*\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    return new RegExp(`^${parts.join('[\\s\\S]*')}$`);
  });
}

function operationsOf(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([template, ops]) => Object.entries(ops).map(([method, op]) => ({
    method: method.toUpperCase(),
    template,
    pattern: new RegExp(`^${template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}/?$`, 'i'),
    messages: new Map(Object.entries(op.responses).filter(([status]) => status !== '200').map(([status, response]) => [status, messagePatterns(response.description ?? '')])),
  })));
}

export class AnsweredErrors {
  private readonly answers: Answer[] = [];
  private operations: Operation[] | undefined;

  constructor(private readonly document: () => Document) {}

  /** Mounted in front of the router (same mount path): records each error envelope the router sends. */
  recorder(): RequestHandler {
    return (req: Request, res: Response, next: NextFunction) => {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const message = (body as { message?: unknown } | null)?.message;
        if (res.statusCode >= 400 && typeof message === 'string') this.record(req.method, req.path, res.statusCode, message);
        return json(body);
      };
      next();
    };
  }

  /** Answers their operation's document does not list, one line each (none: the document tells the truth). */
  undocumented(): string[] {
    const lines = new Set<string>();
    for (const answer of this.answers) lines.add(`${answer.operation} answered ${answer.status} ${JSON.stringify(answer.message)}, which its OpenAPI error responses do not list`);
    return [...lines];
  }

  private record(method: string, path: string, status: number, message: string): void {
    this.operations ??= operationsOf(this.document());
    const operation = this.operations.find((op) => op.method === method && op.pattern.test(path));
    if (!operation) return; // no operation: the router's 404 for an unknown route
    const documented = operation.messages.get(String(status)) ?? [];
    if (!documented.some((pattern) => pattern.test(message))) this.answers.push({ operation: `${method} ${operation.template}`, status, message });
  }
}
