import { PassThrough } from 'node:stream';
import { writeReportXlsx, type ValidationReport } from '@satyapan/statement-engine';
import type { ConversionReport } from './types.js';

/** The .xlsx form of a validation report (what `validation_report_url` serves), written by the engine. */
export async function reportToXlsx(report: ConversionReport): Promise<Uint8Array> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const drained = new Promise<void>((resolve, reject) => {
    sink.once('end', resolve);
    sink.once('error', reject);
  });
  await writeReportXlsx(report as ValidationReport, sink);
  // The engine's writer may or may not end the stream it was given.
  if (!sink.writableEnded) sink.end();
  await drained;
  return new Uint8Array(Buffer.concat(chunks));
}
