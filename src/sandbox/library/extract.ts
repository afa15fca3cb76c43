// Text extraction from an uploaded file, with well-kept libraries in plain
// JavaScript (no native addon): unpdf (PDF.js) for PDF, mammoth for .docx. Markdown and plain text were decoded while the
// upload streamed in; an image gets a generated description. Both parsers
// load the file into memory, so files over PARSE_MAX_BYTES are stored without
// text (readLibraryText answers NO_TEXT for them).
import { readFile } from 'node:fs/promises';
import type { Locale } from '../../api/shapes.js';
import { imageSize, type FileType } from './filetypes.js';
import { describeImage } from '../reading.js';
import { TEXT_MAX_CHARS, type ReceivedFile } from './receive.js';
import { loadMammoth, loadUnpdf } from '../../lazy.js';

export const PARSE_MAX_BYTES = 64 * 1024 * 1024;

/** `warn` is told, once per upload, when a PDF cannot be read because the parser cannot load. */
export async function extractText(
  file: ReceivedFile,
  type: FileType,
  fileName: string,
  lang: Locale,
  warn: (line: string) => void = () => {},
): Promise<string> {
  switch (type.kind) {
    case 'markdown':
    case 'text':
      return file.text?.value ?? '';
    case 'image':
      return describeImage(fileName, type.mime.slice('image/'.length), imageSize(file.head, type.mime), lang);
    case 'pdf':
      return file.path && file.size <= PARSE_MAX_BYTES ? cap(await pdfText(file.path, fileName, warn)) : '';
    case 'docx':
      return file.path && file.size <= PARSE_MAX_BYTES ? cap(await docxText(file.path)) : '';
  }
}

type Unpdf = typeof import('unpdf');

let pdfParser: Promise<Unpdf> | undefined;

/**
 * unpdf: PDF.js built for servers, in plain JavaScript with its worker inlined.
 * pdfjs-dist itself needs DOMMatrix when it loads, which Node has not, and takes
 * it from the optional native @napi-rs/canvas package; where that package is
 * missing (no prebuilt binary, --omit=optional) it failed to load and every PDF
 * was stored without text. unpdf brings its own DOMMatrix and has no native part.
 * Loaded once, on the first PDF (or by checkExtractors at `kagent sandbox` start).
 */
function loadPdfParser(): Promise<Unpdf> {
  pdfParser ??= (async () => {
    const unpdf = await loadUnpdf();
    await unpdf.resolvePDFJSImport(); // loads PDF.js itself now, so a failure shows here
    return unpdf;
  })();
  return pdfParser;
}

/** Why PDF text cannot be extracted in this process, or undefined when it can. */
export async function pdfExtractionProblem(): Promise<string | undefined> {
  try {
    await loadPdfParser();
    return undefined;
  } catch (error) {
    return firstLine(error);
  }
}

/** What `kagent sandbox` says at start (and per upload) when PDFs cannot be read. */
export function pdfWarning(problem: string, fileName?: string): string {
  const what = fileName ? `${fileName} is stored without text` : 'uploaded PDFs are stored without text';
  return `PDF text extraction is not available (${problem}): ${what}, and \`lib text\` answers NO_TEXT for it`;
}

async function pdfText(path: string, fileName: string, warn: (line: string) => void): Promise<string> {
  let unpdf: Unpdf;
  try {
    unpdf = await loadPdfParser();
  } catch (error) {
    warn(pdfWarning(firstLine(error), fileName));
    return '';
  }
  try {
    const data = new Uint8Array(await readFile(path));
    const doc = await unpdf.getDocumentProxy(data, { disableFontFace: true, useSystemFonts: false, verbosity: 0 });
    try {
      const pages: string[] = [];
      let length = 0;
      for (let n = 1; n <= doc.numPages && length < TEXT_MAX_CHARS; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
        pages.push(text.trim());
        length += text.length;
        page.cleanup();
      }
      return pages.join('\n\n');
    } finally {
      await doc.loadingTask.destroy();
    }
  } catch {
    return ''; // a damaged PDF is still stored; it just has no text
  }
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n').find(Boolean)?.slice(0, 200) ?? 'unknown error';
}

async function docxText(path: string): Promise<string> {
  try {
    const mammoth = (await loadMammoth()).default;
    const result = await mammoth.extractRawText({ path });
    return result.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch {
    return '';
  }
}

function cap(text: string): string {
  return text.length <= TEXT_MAX_CHARS ? text : text.slice(0, TEXT_MAX_CHARS);
}
