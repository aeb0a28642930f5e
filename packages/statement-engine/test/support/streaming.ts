// Helpers of the streaming-conversion tests (stream.test.ts, parallel.test.ts): a workbook as input chunks,
// and a conversion's TXT read line by line or written to a stream.
import { PassThrough } from 'node:stream';
import { convertFile, type ConvertOptions, type Problem, type StreamConversion, type WriteSummary } from '../../src/index.js';

/** The text as UTF-8 chunks of `size` bytes, as a file or socket would deliver it. */
export async function* chunks(text: string, size: number): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

/** The TXT through the conversion's `lines`, or null when it has none (a workbook with errors). */
export async function readAll(conversion: StreamConversion): Promise<string | null> {
  if (!conversion.lines) return null;
  let txt = '';
  for await (const l of conversion.lines) txt += l;
  return txt;
}

/** A workbook file (JSON or .xlsx) converted: its TXT (null when the report has errors) and its problems. */
export async function txtOf(path: string, options: ConvertOptions): Promise<{ txt: string | null; problems: Problem[] }> {
  const conversion = await convertFile(path, options);
  if (!conversion.lines) await conversion.dispose();
  return { txt: await readAll(conversion), problems: conversion.report.problems };
}

/** The TXT as `writeTo` writes it to a stream, with writeTo's summary. */
export async function writtenWithSummary(conversion: StreamConversion): Promise<{ txt: string; summary: WriteSummary }> {
  const sink = new PassThrough();
  const received: Buffer[] = [];
  sink.on('data', (b: Buffer) => received.push(b));
  const summary = await conversion.writeTo(sink);
  return { txt: Buffer.concat(received).toString('latin1'), summary };
}

/** The TXT as `writeTo` writes it to a stream. */
export async function written(conversion: StreamConversion): Promise<string> {
  return (await writtenWithSummary(conversion)).txt;
}
