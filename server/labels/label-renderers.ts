// The label documents, with their renderers (pdfkit, bwip-js) loaded on the first label asked for
// rather than with the server: they hold about 7 MB of heap and tens of MB of resident memory that
// a shop's server, printing labels now and then, should not carry all day (issue 30, peak RSS).
import type { LabelJob } from './label-document.ts';

/** The whole document as PDF (label-pdf.ts). */
export async function labelPdf(job: LabelJob, title?: string): Promise<Buffer> {
  return (await import('./label-pdf.ts')).labelPdf(job, title);
}

/** Every label of the job as ZPL (label-zpl.ts). */
export async function labelZpl(job: LabelJob): Promise<string> {
  return (await import('./label-zpl.ts')).labelZpl(job);
}
