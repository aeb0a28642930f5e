// What is wrong with a workbook file as a file (a folder, empty, not JSON, cut short), said in those words. The
// command line reports it before anything about its options: a file problem makes every other message moot.

import { createReadStream, statSync } from 'node:fs';
import { IGNORE_ALL, JsonScanner, JsonSyntaxError } from '../stream/json-scanner.js';

/** The workbook file cannot be used as a workbook (exit code 1, like any workbook that is refused). */
export class WorkbookFileError extends Error {}

/** An I/O problem (missing, unreadable) is the caller's to report; a folder or an empty file is thrown here. */
export function checkFileKind(path: string): { size: number } | { ioError: string } {
  let stats;
  try {
    stats = statSync(path);
  } catch (error) {
    return { ioError: `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
  if (stats.isDirectory()) throw new WorkbookFileError(`${path} is a folder, not a workbook file`);
  if (stats.size === 0) throw new WorkbookFileError(`${path} is empty`);
  return { size: stats.size };
}

/** The scanner's syntax message in the words a person uses for the file: empty, truncated or not JSON. */
export function describeSyntax(path: string, message: string): string {
  if (/^Empty input/.test(message)) return `${path} is empty`;
  if (/^(Unexpected end of input|Unterminated string)/.test(message)) return `${path} is truncated: the JSON ends early (${message})`;
  return `${path} is not JSON: ${message}`;
}

/**
 * Reads the whole file for JSON syntax only; the description of its problem, or null when it is JSON (or
 * cannot be read: conversion reports that). Used only when another error is about to be reported.
 */
export async function syntaxProblem(path: string): Promise<string | null> {
  const scanner = new JsonScanner(IGNORE_ALL);
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) scanner.push(chunk as Buffer);
    scanner.end();
  } catch (error) {
    if (error instanceof JsonSyntaxError) return describeSyntax(path, error.message);
  }
  return null;
}
