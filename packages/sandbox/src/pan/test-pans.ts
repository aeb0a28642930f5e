/**
 * PANs the PAN simulators know: one per outcome the vendor's examples show, and the vendor's own sandbox values
 * (its Postman collection, folder PAN), so that a test suite written against the vendor runs against our
 * sandbox unchanged. Any other well-formed PAN is answered as an invalid PAN (verification) or a PAN that does
 * not exist (link status), as the providers' test environments do.
 *
 * | PAN          | verification (registered name, date of birth, Aadhaar)      | link status                 |
 * |--------------|-------------------------------------------------------------|-----------------------------|
 * | SBXPR1001A   | valid individual: ANJALI RAO, 15/08/1990, Aadhaar seeded    | linked (last 4 of the number sent) |
 * | SBXPR1002B   | valid individual: RAHUL VERMA, 01/02/1985, not seeded       | not linked                  |
 * | SBXCS1003C   | valid company: SATYAPAN DEMO TECHNOLOGIES PRIVATE LIMITED, 01/04/2015 | (422: not an individual's PAN) |
 * | SBXPI1004D   | invalid (deleted, fake or not found)                        | PAN does not exist          |
 * | SBXPE1006F   | valid individual: MEERA NAIR, 23/03/1979, seeded            | Aadhaar linked to another PAN |
 * | SBXPA1007G   | valid individual: ARJUN MEHTA, 30/11/1992, not seeded       | invalid Aadhaar number      |
 * | SBXPL1008H   | valid individual: KAVYA IYER, 14/02/1988, seeded            | PAN linked to another Aadhaar number |
 * | SBXPU1005E   | the source is down (503 Source Unavailable)                 | the source is down (503)    |
 *
 * A name or date of birth other than the record's gives `name_as_per_pan_match` / `date_of_birth_match` false.
 */
export const PAN_TEST_VALUES = {
  individual: 'SBXPR1001A',
  individualNotSeeded: 'SBXPR1002B',
  company: 'SBXCS1003C',
  invalid: 'SBXPI1004D',
  sourceUnavailable: 'SBXPU1005E',
  linkedElsewhere: 'SBXPE1006F',
  invalidAadhaar: 'SBXPA1007G',
  panLinkedElsewhere: 'SBXPL1008H',
} as const;

/**
 * The vendor's sandbox PANs, from its examples (each with the name and date its example sends), answered so
 * that the vendor's example answers come out: the same match flags, seeding status and link messages.
 */
export const VENDOR_PAN_TEST_VALUES = {
  /** John Ronald Doe, 11/11/2001: valid individual, Aadhaar seeded; link status: linked (XXXX XXXX 9999). */
  individual: 'XXXPX1234A',
  /** Tony Duck, 10/11/1999: valid individual, not seeded (the vendor's remark "Holder is Deceased" has no counterpart). */
  individualNotSeeded: 'XXXPX1234H',
  /** James Hope, 10/11/1999: the name matches, the date of birth does not. */
  dateOfBirthMismatch: 'XXXPX1234O',
  /** James Hope Jr, 10/11/1999: neither matches. */
  nameAndDateMismatch: 'XXXPX1234L',
  /** Acme Trust: valid trust, the date does not match. */
  trust: 'XXXTX1234P',
  /** Ron Doe Private Limited, 10/11/1969: valid company, both match. */
  company: 'XXXCX1234B',
  /** Doe Associations, 08/12/1991: valid association of persons, neither matches. */
  associationOfPersons: 'XXXAX2345A',
  /** Doe Industries, 08/12/1991: valid body of individuals, the date matches, the name does not. */
  bodyOfIndividuals: 'XXXBX3456B',
  /** Tom Wells: invalid (a firm's PAN). */
  invalid: 'XXXFX1234J',
  /** 503 Source Unavailable. */
  sourceUnavailable: 'XXXPX1234G',
  /** Link status: not linked. */
  notLinked: 'XXXPX1234X',
  /** Link status: PAN does not exist. */
  panNotFound: 'XXXPX3456X',
  /** Link status: the Aadhaar number is linked to some other PAN. */
  linkedElsewhere: 'XXPPX2345X',
} as const;

/** A PAN's record as the PAN provider simulator returns it. */
export type PanScenario =
  | { kind: 'valid'; name: string; dateOfBirth: string; aadhaarLinked: boolean }
  | { kind: 'invalid' }
  | { kind: 'down' };

export type LinkScenario =
  | { kind: 'linked' }
  | { kind: 'not_linked' | 'linked_elsewhere' | 'pan_linked_elsewhere' | 'pan_not_found' | 'invalid_aadhaar' | 'down' };

const T = PAN_TEST_VALUES;
const V = VENDOR_PAN_TEST_VALUES;
const valid = (name: string, dateOfBirth: string, aadhaarLinked: boolean): PanScenario => ({ kind: 'valid', name, dateOfBirth, aadhaarLinked });

const RECORDS: Readonly<Record<string, PanScenario>> = {
  [T.individual]: valid('ANJALI RAO', '1990-08-15', true),
  [T.individualNotSeeded]: valid('RAHUL VERMA', '1985-02-01', false),
  [T.company]: valid('SATYAPAN DEMO TECHNOLOGIES PRIVATE LIMITED', '2015-04-01', false),
  [T.invalid]: { kind: 'invalid' },
  [T.sourceUnavailable]: { kind: 'down' },
  [T.linkedElsewhere]: valid('MEERA NAIR', '1979-03-23', true),
  [T.invalidAadhaar]: valid('ARJUN MEHTA', '1992-11-30', false),
  [T.panLinkedElsewhere]: valid('KAVYA IYER', '1988-02-14', true),
  [V.individual]: valid('JOHN RONALD DOE', '2001-11-11', true),
  [V.individualNotSeeded]: valid('TONY DUCK', '1999-11-10', false),
  [V.dateOfBirthMismatch]: valid('JAMES HOPE', '1998-01-01', false),
  [V.nameAndDateMismatch]: valid('PETER HOPE', '1997-05-05', false),
  [V.trust]: valid('ACME TRUST', '2004-06-01', false),
  [V.company]: valid('RON DOE PRIVATE LIMITED', '1969-11-10', false),
  [V.associationOfPersons]: valid('DOE ASSOCIATES', '1990-01-01', false),
  [V.bodyOfIndividuals]: valid('DOE ENTERPRISES', '1991-12-08', false),
  [V.invalid]: { kind: 'invalid' },
  [V.sourceUnavailable]: { kind: 'down' },
};

const LINKS: Readonly<Record<string, LinkScenario>> = {
  [T.individual]: { kind: 'linked' },
  [T.individualNotSeeded]: { kind: 'not_linked' },
  [T.invalid]: { kind: 'pan_not_found' },
  [T.sourceUnavailable]: { kind: 'down' },
  [T.linkedElsewhere]: { kind: 'linked_elsewhere' },
  [T.invalidAadhaar]: { kind: 'invalid_aadhaar' },
  [T.panLinkedElsewhere]: { kind: 'pan_linked_elsewhere' },
  [V.individual]: { kind: 'linked' },
  [V.notLinked]: { kind: 'not_linked' },
  [V.panNotFound]: { kind: 'pan_not_found' },
  [V.linkedElsewhere]: { kind: 'linked_elsewhere' },
  [V.sourceUnavailable]: { kind: 'down' },
};

export function panScenario(pan: string): PanScenario {
  return RECORDS[pan] ?? { kind: 'invalid' };
}

export function linkScenario(pan: string): LinkScenario {
  return LINKS[pan] ?? { kind: 'pan_not_found' };
}
