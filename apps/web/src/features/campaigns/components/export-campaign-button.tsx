import type { Campaign, CampaignType } from '@notice-desk/contract/campaigns';
import { useDownloadFileMutation } from '../../../lib/download-api.ts';
import { campaignZipUrl } from '../api/campaigns-api.ts';

type ExportCampaignButtonProps = { type: CampaignType; campaign: Campaign };

/**
 * A campaign row's 'Export': every record's PDF in one zip, named as the server names it. A large
 * campaign takes a while, so the button says it is busy until the file is saved.
 */
export function ExportCampaignButton({ type, campaign }: ExportCampaignButtonProps) {
  const [download, { isLoading: downloading }] = useDownloadFileMutation();

  const exportCampaign = async () => {
    try {
      await download({ url: campaignZipUrl(type, campaign._id), fileName: `${campaign.name}.zip` }).unwrap();
    } catch (problem) {
      // The spec: a failed zip export is only logged.
      console.error(`Exporting the campaign ${campaign.name} failed.`, problem);
    }
  };

  return (
    <button
      type="button"
      className="button button-secondary button-small"
      disabled={downloading}
      aria-busy={downloading}
      onClick={() => void exportCampaign()}
    >
      {downloading ? 'Exporting…' : 'Export'}
      <span className="visually-hidden"> {campaign.name}</span>
    </button>
  );
}
