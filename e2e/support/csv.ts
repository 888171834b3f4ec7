// What a screen's "Exportar CSV" hands the browser: the download, and the file read back as
// the app writes it (UTF-8 with a BOM, `;` between fields).
import { readFileSync } from 'node:fs';
import Papa from 'papaparse';
import { expect, type Download, type Locator } from '@playwright/test';

/** Clicks `button` and waits for the file its click downloads. */
export async function downloadFrom(button: Locator): Promise<Download> {
  const downloading = button.page().waitForEvent('download');
  await button.click();
  return downloading;
}

/** A downloaded CSV: its text after the BOM (checked) and its rows, the header first. */
export async function readCsv(file: Download): Promise<{ text: string; rows: string[][] }> {
  const bytes = readFileSync(await file.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM
  const text = bytes.toString('utf8').slice(1);
  return { text, rows: Papa.parse<string[]>(text, { delimiter: ';', skipEmptyLines: true }).data };
}

/** The rows of the CSV `button` downloads, the header first. */
export async function csvRows(button: Locator): Promise<string[][]> {
  return (await readCsv(await downloadFrom(button))).rows;
}
