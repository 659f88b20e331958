import type { Campaign, CampaignType } from '@notice-desk/contract/campaigns';
import { DownloadButton } from '../../../components/ui/download-button.tsx';
import { campaignZipUrl } from '../api/campaigns-api.ts';

type ExportCampaignButtonProps = { type: CampaignType; campaign: Campaign };

/**
 * A campaign row's 'Export': every record's PDF in one zip, named as the server names it. A large
 * campaign takes a while, so the button says it is busy until the file is saved.
 */
export function ExportCampaignButton({ type, campaign }: ExportCampaignButtonProps) {
  // The spec: a failed zip export is only logged.
  const exportFailed = (problem: unknown) =>
    console.error(`Exporting the campaign ${campaign.name} failed.`, problem);

  return (
    <DownloadButton
      url={campaignZipUrl(type, campaign._id)}
      fileName={`${campaign.name}.zip`}
      label="Export"
      busyLabel="Exporting…"
      onFailed={exportFailed}
      small
      subject={campaign.name}
    />
  );
}
