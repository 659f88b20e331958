/** The one plain-address rule (`local@domain.tld`) is the contract's, shared with the serviceable-address check. */
export { singleMailAddress } from '@notice-desk/contract/serviceable';
