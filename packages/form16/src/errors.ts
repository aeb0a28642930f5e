// The package's thrown errors, one registry. A workbook with problems is not thrown: its validation report is
// returned (makeForm16s), since a certificate is only made from a statement that can be filed.

export const FORM16_ERRORS = {
  WORKBOOK_UNREADABLE: 'The workbook file cannot be read, or is not JSON / .xlsx.',
  OUT_DIR_UNWRITABLE: 'The output folder cannot be made or written.',
  PART_A_UNREADABLE: 'The Part A folder or zip cannot be read, or a Part A file in it is not a PDF.',
  CERTIFICATE_UNREADABLE: 'The PKCS#12 file cannot be read, its password is wrong, or it holds no private key with its certificate.',
  CERTIFICATE_NOT_VALID_NOW: 'The signing certificate is not valid at the signing time (not yet valid, or expired).',
  TEXT_NOT_PRINTABLE: 'A text (name, address) has characters the PDF font cannot print; the message names the field.',
} as const;

export type Form16ErrorCode = keyof typeof FORM16_ERRORS;

export class Form16Error extends Error {
  readonly code: Form16ErrorCode;

  constructor(code: Form16ErrorCode, message: string) {
    super(message);
    this.name = 'Form16Error';
    this.code = code;
  }
}
