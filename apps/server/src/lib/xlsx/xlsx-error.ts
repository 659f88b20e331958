/** A problem with a whole workbook, worded for the person who uploaded it. */
export class XlsxError extends Error {}
