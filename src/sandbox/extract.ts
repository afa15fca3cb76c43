// Text extraction from an uploaded file, with well-kept libraries: pdfjs-dist
// for PDF, mammoth for .docx. Markdown and plain text were decoded while the
// upload streamed in; an image gets a generated description. Both parsers
// load the file into memory, so files over PARSE_MAX_BYTES are stored without
// text (readLibraryText answers NO_TEXT for them).
import { readFile } from 'node:fs/promises';
import type { Locale } from '../api/shapes.js';
import { imageSize, type FileType } from './filetypes.js';
import { describeImage } from './reading.js';
import { TEXT_MAX_CHARS, type ReceivedFile } from './uploads.js';

export const PARSE_MAX_BYTES = 64 * 1024 * 1024;

export async function extractText(file: ReceivedFile, type: FileType, fileName: string, lang: Locale): Promise<string> {
  switch (type.kind) {
    case 'markdown':
    case 'text':
      return file.text?.value ?? '';
    case 'image':
      return describeImage(fileName, type.mime.slice('image/'.length), imageSize(file.head, type.mime), lang);
    case 'pdf':
      return file.path && file.size <= PARSE_MAX_BYTES ? cap(await pdfText(file.path)) : '';
    case 'docx':
      return file.path && file.size <= PARSE_MAX_BYTES ? cap(await docxText(file.path)) : '';
  }
}

async function pdfText(path: string): Promise<string> {
  try {
    // Loaded only when a PDF arrives; in Node no worker is needed.
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const data = new Uint8Array(await readFile(path));
    const doc = await pdfjs.getDocument({ data, isEvalSupported: false, disableFontFace: true, useSystemFonts: false, verbosity: 0 }).promise;
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
      await doc.destroy();
    }
  } catch {
    return ''; // a damaged PDF is still stored; it just has no text
  }
}

async function docxText(path: string): Promise<string> {
  try {
    const mammoth = (await import('mammoth')).default;
    const result = await mammoth.extractRawText({ path });
    return result.value.replace(/\n{3,}/g, '\n\n').trim();
  } catch {
    return '';
  }
}

function cap(text: string): string {
  return text.length <= TEXT_MAX_CHARS ? text : text.slice(0, TEXT_MAX_CHARS);
}
