// Turns any error answer into one ApiError: the contract's envelope
// {error:{code,message,issues}}, an RFC 9457 problem document, or something
// else entirely (an HTML page from a proxy, an empty body). Never throws.
import { ApiError, type ApiIssue } from '../errors.js';
import { MAX_ANSWER_DEPTH, nestedDeeperThan } from '../api/depth.js';
import { answerValues, MAX_ANSWER_VALUES } from './body.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface ErrorAnswer {
  status: number;
  contentType: string;
  text: string;
  retryAfterMs?: number;
}

export function parseApiError(answer: ErrorAnswer): ApiError {
  const { status } = answer;
  const body = parseJson(answer.text);
  const fallback = {
    status,
    code: `HTTP_${status}`,
    message: `the service answered ${status} ${REASONS[status] ?? ''}`.trim(),
    body: body ?? (answer.text ? answer.text.slice(0, 2000) : undefined),
    retryAfterMs: answer.retryAfterMs,
  };
  if (!isObject(body)) return withHint(new ApiError(fallback));

  const envelope = body.error;
  if (isObject(envelope)) {
    return withHint(
      new ApiError({
        ...fallback,
        code: text(envelope.code) ?? fallback.code,
        message: text(envelope.message) ?? fallback.message,
        issues: issuesFrom(envelope.issues ?? body.issues),
        body,
      }),
    );
  }

  const isProblem =
    /application\/problem\+json/i.test(answer.contentType) ||
    ['title', 'detail', 'type'].some((k) => typeof body[k] === 'string');
  if (isProblem) {
    return withHint(
      new ApiError({
        ...fallback,
        code: text(body.code) ?? codeFromProblemType(body.type) ?? fallback.code,
        message: text(body.detail) ?? text(body.title) ?? fallback.message,
        issues: issuesFrom(body.issues ?? body.errors),
        body,
      }),
    );
  }

  // Some services answer {code, message} without the envelope.
  return withHint(
    new ApiError({
      ...fallback,
      code: text(body.code) ?? fallback.code,
      message: text(body.message) ?? fallback.message,
      body,
    }),
  );
}

/** Hints for answers where the next step is not obvious from the message. */
function withHint(error: ApiError): ApiError {
  error.hint ??= hintFor(error);
  return error;
}

function hintFor(error: ApiError): string | undefined {
  switch (error.status) {
    case 401:
      return 'the API key is missing, wrong or revoked: run `kagent auth login` (or set KAGENT_API_KEY)';
    case 402:
      return 'not enough credits: `kagent me` shows what is left in each pool';
    case 403:
      if (error.code === 'EMAIL_NOT_VERIFIED') return 'verify your email address first, then try again';
      if (error.code === 'FORBIDDEN_HOST' || error.code === 'FORBIDDEN_ORIGIN')
        return 'the service refused the Host or Origin the request named: leave those headers to kagent (no -H Host:)';
      return '`kagent me` shows your plan limits';
    case 413:
      return '`kagent me` shows the per-file limit and the storage left';
    default:
      return undefined;
  }
}

/** `https://example.com/problems/rate-limited` → `RATE_LIMITED`; `about:blank` → none. */
function codeFromProblemType(type: unknown): string | undefined {
  if (typeof type !== 'string' || type === 'about:blank') return undefined;
  const last = type.split(/[/#]/).filter(Boolean).pop();
  return last ? last.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase() : undefined;
}

/** Accepts [{path, message}], [{pointer|field|name, detail}], or {field: [messages]}. */
function issuesFrom(value: unknown): ApiIssue[] | undefined {
  if (Array.isArray(value)) {
    const issues = value.filter(isObject).map((item) => ({
      path: text(item.path) ?? text(item.pointer) ?? text(item.field) ?? text(item.name) ?? '',
      message: text(item.message) ?? text(item.detail) ?? text(item.title) ?? JSON.stringify(item),
    }));
    return issues.length ? issues : undefined;
  }
  if (isObject(value)) {
    const issues = Object.entries(value).flatMap(([path, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((message) => ({
        path,
        message: text(message) ?? JSON.stringify(message),
      })),
    );
    return issues.length ? issues : undefined;
  }
  return undefined;
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  // An error body past the values kagent parses (body.ts) is not read either: the status speaks.
  if ((answerValues(text) ?? 0) > MAX_ANSWER_VALUES) return undefined;
  try {
    const value: unknown = JSON.parse(withoutBom(text));
    // An error body nested past any real one is not read (every walk over it recurses): the status speaks instead.
    return nestedDeeperThan(value, MAX_ANSWER_DEPTH) ? undefined : value;
  } catch {
    return undefined;
  }
}

/** A byte order mark before JSON is no error (RFC 8259 lets a reader ignore it). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}
