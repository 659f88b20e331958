/**
 * The serviceable-address rule lives in the contract, so the web forms run the same code as the
 * import, the campaign page and the send (issue 28, "Addresses checked before they fail").
 */
export {
  mailUnserviceableReason,
  mobileUnserviceableReason,
  unserviceableReason,
} from '@notice-desk/contract/serviceable';
