/**
 * Reading a tickets PDF as a printer would show it: each page rendered by MuPDF (a real PDF
 * renderer, WebAssembly) at 144 dpi, each ticket cell of the page (services/tickets-pdf.ts
 * `ticketCells`) decoded with jsQR.
 */
import jsQR from 'jsqr';
import * as mupdf from 'mupdf';
import { ticketCells } from '../../src/services/tickets-pdf.ts';

/** Pixels per point of the rendering: 2 = 144 dpi, some 5 px a module for a 41-module code. */
const SCALE = 2;

/**
 * The texts of the QR codes printed in tickets PDF `pdf`, page by page, each page's cells in
 * reading order (only the `pages` given, counted from 0, when given). A cell without a readable code (the last page's empty rest, or a code that does
 * not decode) adds nothing: compare the result with every ticket's text.
 */
export function qrTextsOfTicketsPdf(pdf: Buffer, { pages }: { pages?: number[] } = {}): string[] {
  const document = mupdf.Document.openDocument(pdf, 'application/pdf');
  const texts: string[] = [];
  for (const pageIndex of pages ?? Array.from({ length: document.countPages() }, (_, index) => index)) {
    const pixmap = document.loadPage(pageIndex).toPixmap(mupdf.Matrix.scale(SCALE, SCALE), mupdf.ColorSpace.DeviceRGB, false);
    const [width, stride, pixels] = [pixmap.getWidth(), pixmap.getStride(), pixmap.getPixels()];
    for (const cell of ticketCells()) {
      const left = Math.floor(cell.x * SCALE);
      const top = Math.floor(cell.y * SCALE);
      const cellWidth = Math.min(Math.floor(cell.width * SCALE), width - left);
      const cellHeight = Math.floor(cell.height * SCALE);
      const rgba = new Uint8ClampedArray(cellWidth * cellHeight * 4);
      for (let y = 0; y < cellHeight; y++) {
        for (let x = 0; x < cellWidth; x++) {
          const from = (top + y) * stride + (left + x) * 3;
          const to = (y * cellWidth + x) * 4;
          rgba[to] = pixels[from] ?? 255;
          rgba[to + 1] = pixels[from + 1] ?? 255;
          rgba[to + 2] = pixels[from + 2] ?? 255;
          rgba[to + 3] = 255;
        }
      }
      const decoded = jsQR(rgba, cellWidth, cellHeight);
      if (decoded) texts.push(decoded.data);
    }
  }
  return texts;
}

/** How many pages tickets PDF `pdf` has, as MuPDF reads it (a file cut short does not open). */
export function pageCountOfPdf(pdf: Buffer): number {
  return mupdf.Document.openDocument(pdf, 'application/pdf').countPages();
}
