import { randomUUID } from 'node:crypto';
import type { ServiceError } from './errors.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';

/** Success envelope of every enveloped operation (docs/API.md "Conventions"). */
export interface SuccessEnvelope<T> {
  code: number;
  timestamp: number;
  data: T;
  transaction_id: string;
}

export interface ErrorEnvelope {
  code: number;
  timestamp: number;
  message: string;
  transaction_id: string;
}

export function newTransactionId(): string {
  return randomUUID();
}

export function successEnvelope<T>(
  data: T,
  transactionId: string,
  options: { status?: number; clock?: Clock } = {},
): SuccessEnvelope<T> {
  const clock = options.clock ?? systemClock;
  return { code: options.status ?? 200, timestamp: clock.now(), data, transaction_id: transactionId };
}

export function errorEnvelope(error: ServiceError, transactionId: string, clock: Clock = systemClock): ErrorEnvelope {
  return { code: error.status, timestamp: clock.now(), message: error.message, transaction_id: transactionId };
}
