import { XlsxError } from './xlsx-error.ts';
import { attributeByLocalName, parseXml, shorten } from './xml.ts';
import type { ZipArchive } from './zip.ts';

/** The parts of a workbook an import reads, found as the packaging standard (OPC) says. */
export interface WorkbookParts {
  /** The sheet read: the first visible worksheet in tab order. */
  sheet: { name: string; part: string };
  /** How many sheets the workbook has, of every kind, hidden ones too. */
  sheetCount: number;
  sharedStrings?: string;
  styles?: string;
  date1904: boolean;
  /**
   * The workbook asks to be calculated when opened (calcPr fullCalcOnLoad): its writer did not calculate
   * the formulas, and their stored results are placeholders (xlsxwriter stores 0).
   */
  calculateOnLoad: boolean;
}

interface Relationship {
  type: string;
  /** The target's zip entry, or undefined when the file has no such part. */
  entry: string | undefined;
  /** The target as a part name, for messages. */
  part: string;
}

const NOT_A_WORKBOOK = 'The file is a zip archive but not an .xlsx workbook.';

/**
 * From `_rels/.rels` to the workbook, from the workbook's relationships to its sheets, shared strings
 * and styles; each part name matched without regard to case. Relationship types are told by their
 * last segment, which transitional and strict OOXML share. A workbook written without package
 * relationships (only hand-made ones are) is looked for at xl/workbook.xml.
 */
export async function findWorkbookParts(zip: ZipArchive): Promise<WorkbookParts> {
  const contentTypes = await readContentTypes(zip);
  const packageRels = await readRelationships(zip, '', '_rels/.rels');
  const office = packageRels && [...packageRels.values()].find((r) => r.type === 'officeDocument');
  const workbookPart = office?.part ?? 'xl/workbook.xml';
  const workbookEntry = zip.find(workbookPart);
  if (!workbookEntry) throw new XlsxError(NOT_A_WORKBOOK);
  const type = contentTypes(workbookEntry);
  if (type && !/spreadsheetml|ms-excel/i.test(type)) throw new XlsxError(NOT_A_WORKBOOK);

  const sheets: { name: string; state: string; relId: string | undefined }[] = [];
  let date1904 = false;
  let calculateOnLoad = false;
  const open: string[] = [];
  parseXml(await zip.text(workbookEntry), workbookEntry, {
    open(name, attributes) {
      if (name === 'sheet' && open.at(-1) === 'sheets') {
        sheets.push({
          name: attributes.name ?? `Sheet${sheets.length + 1}`,
          state: attributes.state ?? 'visible',
          relId: attributeByLocalName(attributes, 'id'),
        });
      } else if (name === 'workbookPr' && open.at(-1) === 'workbook') {
        // Only the workbook's own: Excel 2013 on writes another, x15:workbookPr, inside extLst, without date1904.
        date1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      } else if (name === 'calcPr' && open.at(-1) === 'workbook') {
        calculateOnLoad = attributes.fullCalcOnLoad === '1' || attributes.fullCalcOnLoad === 'true';
      }
      open.push(name);
    },
    close: () => void open.pop(),
  });
  if (sheets.length === 0) throw new XlsxError('The workbook has no sheet.');

  const folder = workbookEntry.slice(0, workbookEntry.lastIndexOf('/') + 1);
  const relsPart = `${folder}_rels/${workbookEntry.slice(folder.length)}.rels`;
  const rels = (await readRelationships(zip, folder, relsPart)) ?? new Map<string, Relationship>();
  let chosen: WorkbookParts['sheet'] | undefined;
  for (const sheet of sheets) {
    const rel = sheet.relId === undefined ? undefined : rels.get(sheet.relId);
    if (!rel) {
      throw new XlsxError(
        `The workbook lists a sheet '${shorten(sheet.name, 31)}' that ${relsPart} does not lead to (no relationship ${shorten(sheet.relId ?? '(none)')}): the file is damaged. Open it in Excel and save it again.`,
      );
    }
    if (chosen || sheet.state === 'hidden' || sheet.state === 'veryHidden') continue;
    if (!isWorksheet(rel, contentTypes)) continue;
    if (!rel.entry) {
      throw new XlsxError(
        `The workbook's sheet '${shorten(sheet.name, 31)}' should be in ${shorten(rel.part, 80)}, which the file does not have: the file is damaged. Open it in Excel and save it again.`,
      );
    }
    chosen = { name: sheet.name, part: rel.entry };
  }
  if (!chosen) {
    throw new XlsxError(
      'The workbook has no visible worksheet: its sheets are hidden or hold only charts. Unhide the sheet to import in Excel (right-click a tab, Unhide…), save, and import again.',
    );
  }
  // Hand-made workbooks give no relationship types: their parts are looked for where Excel puts them.
  const related = (type: string, conventional: string) => {
    const rel = [...rels.values()].find((r) => r.type === type);
    if (!rel) return zip.find(`${folder}${conventional}`);
    // Without styles every cell reads as General, as Excel repairs such a file; without the shared
    // strings every text cell would read as empty, which no import may do silently.
    if (!rel.entry && type === 'sharedStrings') {
      throw new XlsxError(
        `The workbook's shared strings should be in ${shorten(rel.part, 80)}, which the file does not have: the file is damaged. Open it in Excel and save it again.`,
      );
    }
    return rel.entry;
  };
  return {
    sheet: chosen,
    sheetCount: sheets.length,
    sharedStrings: related('sharedStrings', 'sharedStrings.xml'),
    styles: related('styles', 'styles.xml'),
    date1904,
    calculateOnLoad,
  };
}

/**
 * A sheet's kind by its relationship's type (worksheet, chartsheet, dialogsheet, macro sheets), else by
 * its content type; a sheet neither tells about is taken for a worksheet.
 */
function isWorksheet(rel: Relationship, contentTypes: (entry: string) => string | undefined): boolean {
  if (rel.type) return rel.type === 'worksheet';
  const type = rel.entry && contentTypes(rel.entry);
  return !type || /\.worksheet\+xml$/i.test(type);
}

/** A relationships part: targets resolved against `folder`, by relationship id. Undefined when absent. */
async function readRelationships(
  zip: ZipArchive,
  folder: string,
  part: string,
): Promise<Map<string, Relationship> | undefined> {
  const entry = zip.find(part);
  if (!entry) return undefined;
  const rels = new Map<string, Relationship>();
  parseXml(await zip.text(entry), entry, {
    open(name, attributes) {
      if (name !== 'Relationship' || attributes.Id === undefined || attributes.Target === undefined) return;
      if (attributes.TargetMode === 'External') return;
      const target = resolvePartName(folder, attributes.Target);
      rels.set(attributes.Id, {
        type: (attributes.Type ?? '').slice((attributes.Type ?? '').lastIndexOf('/') + 1),
        entry: zip.find(target),
        part: target,
      });
    },
  });
  return rels;
}

/** `[Content_Types].xml` as a lookup of an entry's content type (overrides, then defaults by extension). */
async function readContentTypes(zip: ZipArchive): Promise<(entry: string) => string | undefined> {
  const entry = zip.find('[Content_Types].xml');
  if (!entry) return () => undefined;
  const overrides = new Map<string, string>();
  const defaults = new Map<string, string>();
  parseXml(await zip.text(entry), entry, {
    open(name, attributes) {
      const type = attributes.ContentType;
      if (type === undefined) return;
      if (name === 'Override' && attributes.PartName !== undefined) {
        overrides.set(resolvePartName('', attributes.PartName).toLowerCase(), type);
      } else if (name === 'Default' && attributes.Extension !== undefined) {
        defaults.set(attributes.Extension.toLowerCase(), type);
      }
    },
  });
  return (name) => {
    const folded = name.toLowerCase();
    return overrides.get(folded) ?? defaults.get(folded.slice(folded.lastIndexOf('.') + 1));
  };
}

/** A relationship's target as a part name (no leading '/'): absolute, or relative to `folder`. */
function resolvePartName(folder: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // not percent-encoded after all: taken as written
  }
  const path = decoded.startsWith('/') ? decoded.slice(1) : `${folder}${decoded}`;
  const segments: string[] = [];
  for (const segment of path.replace(/\\/g, '/').split('/')) {
    if (segment === '..') segments.pop();
    else if (segment !== '.' && segment !== '') segments.push(segment);
  }
  return segments.join('/');
}
