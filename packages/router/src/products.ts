export { PRODUCTS, type Product } from '@satyapan/core';
