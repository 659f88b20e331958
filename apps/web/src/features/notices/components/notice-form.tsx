import { noticeBody, noticeSteps, type Notice, type NoticeFields } from '@notice-desk/contract/notice';
import { RecordForm, type RecordFormApi } from '../../../components/records/record-form.tsx';
import { paths } from '../../../config/paths.ts';
import { useCreateNoticeMutation, useUpdateNoticeMutation } from '../api/notices-api.ts';

const noticesApi: RecordFormApi<NoticeFields> = {
  useCreate: useCreateNoticeMutation,
  useUpdate: useUpdateNoticeMutation,
};

/** The fields holding a date (as text, day.month.year): each gets a date picker. */
const DATE_FIELDS: ReadonlySet<string> = new Set([
  'disbursalDate',
  'conciliationDate',
  'noticeSentOn',
  'allocationDated',
]);

type NoticeFormProps = {
  /** The record to edit; a new notice when absent. */
  notice?: Notice;
  /** After the success toast (the route goes back to the list). */
  onSaved: () => void;
};

/** The 4-step notice wizard: adds a notice, or edits one when given. */
export function NoticeForm({ notice, onSaved }: NoticeFormProps) {
  return (
    <RecordForm
      api={noticesApi}
      label="Notice"
      steps={noticeSteps}
      body={noticeBody}
      record={notice}
      createdMessage="Notice Created Successfully."
      updatedMessage="Notice Updated Successfully."
      saveFailedMessage="The notice could not be saved."
      onSaved={onSaved}
      listHref={paths.notices.list.getHref()}
      dateFields={DATE_FIELDS}
    />
  );
}
