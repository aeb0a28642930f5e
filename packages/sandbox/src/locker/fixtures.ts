/**
 * The people and businesses who "own" the simulated lockers. All of them are invented; the numbers only look
 * like real identifiers (PAN shape, CIN shape, ...) so that generated documents read like the real ones.
 */

export type Gender = 'M' | 'F' | 'T';

/** Five-letter document type codes of the national lockers. */
export type IndividualDocType = 'ADHAR' | 'PANCR' | 'DRVLC';
export type EntityDocType = 'CPMTD' | 'GSTND' | 'UDCER';
export type LockerDocType = IndividualDocType | EntityDocType;

export interface LockerUser {
  /** The locker's user id (`digilockerid`). */
  id: string;
  name: string;
  /** DDMMYYYY, as the locker sends it. */
  dob: string;
  gender: Gender;
  eaadhaar: boolean;
  mobile: string;
  /** Some accounts have no e-mail address. */
  email?: string;
  /**
   * The (invented, Verhoeff-valid) Aadhaar number linked to the locker account: the account check finds the
   * user by it, and the e-Aadhaar XML shows its last four digits.
   */
  aadhaarNumber: string;
  address: PostalAddress;
  careOf: string;
  pan?: string;
  drivingLicence?: string;
  /** Documents issued into this user's locker. */
  documents: IndividualDocType[];
}

export interface PostalAddress {
  house: string;
  street: string;
  landmark: string;
  locality: string;
  vtc: string;
  subdistrict: string;
  district: string;
  state: string;
  pincode: string;
  postOffice: string;
  country: string;
}

export interface LockerEntity {
  id: string;
  name: string;
  /** DDMMYYYY. */
  incorporatedOn: string;
  email: string;
  mobile: string;
  /** The identifier kind the locker verified the entity with. */
  verifiedBy: 'cin' | 'gstin' | 'udyam' | 'pan';
  cin: string;
  gstin: string;
  udyam: string;
  registeredOffice: string;
  /** The person who signs in to the entity locker. */
  user: LockerUser;
  documents: EntityDocType[];
}

const BENGALURU: PostalAddress = {
  house: '14, Lakshmi Nilaya', street: '3rd Main Road', landmark: 'Near Ganesha Temple', locality: 'Jayanagar',
  vtc: 'Bengaluru', subdistrict: 'Bengaluru South', district: 'Bengaluru Urban', state: 'Karnataka',
  pincode: '560041', postOffice: 'Jayanagar', country: 'India',
};

const PUNE: PostalAddress = {
  house: 'Flat 7, Sai Residency', street: 'Law College Road', landmark: 'Opp. City Park', locality: 'Erandwane',
  vtc: 'Pune', subdistrict: 'Haveli', district: 'Pune', state: 'Maharashtra',
  pincode: '411004', postOffice: 'Deccan Gymkhana', country: 'India',
};

const KOCHI: PostalAddress = {
  house: 'Door 22/410', street: 'Chittoor Road', landmark: 'Behind Public Library', locality: 'Ernakulam North',
  vtc: 'Kochi', subdistrict: 'Kanayannur', district: 'Ernakulam', state: 'Kerala',
  pincode: '682018', postOffice: 'Ernakulam North', country: 'India',
};

export const INDIVIDUALS: readonly LockerUser[] = [
  {
    id: '6f1c2a9e-4b7d-4c1e-9a53-2d8e71b0c4a1', name: 'Asha Verma', dob: '16041995', gender: 'F', eaadhaar: true,
    mobile: '9876543210', email: 'asha.verma@example.in', aadhaarNumber: '734500052346', address: BENGALURU,
    careOf: 'D/O: Raghav Verma', pan: 'ABCPV1234K', drivingLicence: 'KA0520190012345',
    documents: ['ADHAR', 'PANCR', 'DRVLC'],
  },
  {
    id: '0b7e4d12-93a6-4f0c-8d2b-5c6a1e9f3b70', name: 'Rohan Iyer', dob: '02111988', gender: 'M', eaadhaar: false,
    mobile: '9123456780', aadhaarNumber: '734500080019', address: PUNE, careOf: 'S/O: Venkat Iyer', pan: 'BQRPI5678L',
    documents: ['ADHAR', 'PANCR'],
  },
  {
    id: 'c35d8f60-1e2b-47a9-b6c4-8e0f2a7d915b', name: 'Kiran Das', dob: '29021992', gender: 'T', eaadhaar: true,
    mobile: '9012345678', email: 'kiran.das@example.in', aadhaarNumber: '734500007781', address: KOCHI,
    careOf: 'C/O: Leela Das', drivingLicence: 'KL0720150054321', documents: ['ADHAR', 'DRVLC'],
  },
];

export const ENTITIES: readonly LockerEntity[] = [
  {
    id: '8a2f6c1d-5e3b-4a79-9c08-7d1e2b4f6a35', name: 'SATYAPAN DEMO TECHNOLOGIES PRIVATE LIMITED',
    incorporatedOn: '16012021', email: 'compliance@satyapan-demo.example.in', mobile: '9988776655', verifiedBy: 'cin',
    cin: 'U72900KA2021PTC143210', gstin: '29AAKCS1234F1Z5', udyam: 'UDYAM-KR-03-0012345',
    registeredOffice: '2nd Floor, 45 Residency Road, Bengaluru, Karnataka 560025',
    user: {
      id: 'e4a9b1c7-2d6f-4e83-a05b-93c7d2f1e864', name: 'Meera Nair', dob: '28011985', gender: 'F', eaadhaar: true,
      mobile: '9445566778', aadhaarNumber: '734500004521', address: KOCHI, careOf: 'W/O: Arjun Nair', documents: ['ADHAR'],
    },
    documents: ['CPMTD', 'GSTND', 'UDCER'],
  },
  {
    id: '3d9e0a4b-7c21-4f56-8e1a-b2c4d6e8f013', name: 'KAVERI HANDLOOMS LLP', incorporatedOn: '05072018',
    email: 'accounts@kaveri-handlooms.example.in', mobile: '9887766554', verifiedBy: 'gstin',
    cin: 'AAK-1234', gstin: '33AAKFK5678M1Z2', udyam: 'UDYAM-TN-02-0098765',
    registeredOffice: '12 Weavers Street, Kanchipuram, Tamil Nadu 631501',
    user: {
      id: '5b8c3e2a-9d14-4a6f-b7e0-1c2d3e4f5a6b', name: 'Suresh Kumar', dob: '11061979', gender: 'M', eaadhaar: false,
      mobile: '9443322110', aadhaarNumber: '734500038812', address: PUNE, careOf: 'S/O: Ramaswamy', documents: ['ADHAR'],
    },
    documents: ['GSTND', 'UDCER'],
  },
];

export function findIndividual(id: string): LockerUser | undefined {
  return INDIVIDUALS.find((user) => user.id === id);
}

/** The individual locker's account check: by Aadhaar number, by mobile number, or both (both must match one user). */
export function findIndividualAccount(aadhaarNumber: string | undefined, mobile: string | undefined): LockerUser | undefined {
  return INDIVIDUALS.find((user) => (aadhaarNumber === undefined || user.aadhaarNumber === aadhaarNumber)
    && (mobile === undefined || user.mobile === mobile));
}

export function findEntityByUser(userId: string): LockerEntity | undefined {
  return ENTITIES.find((entity) => entity.user.id === userId);
}
