/** What a client can be enabled for; every authenticated route needs exactly one. */
export const PRODUCTS = ['kyc', 'bank', 'tds', 'tcs'] as const;
export type Product = (typeof PRODUCTS)[number];
