import { useMemo } from 'react';
import { encode } from 'uqr';

/** The UPI link as a QR code, drawn as one SVG path (crisp at any size, no canvas, no markup from text). */
export function UpiQr({ link, label }: { link: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = encode(link, { ecc: 'M', border: 2 });
    let modules = '';
    qr.data.forEach((row, y) =>
      row.forEach((dark, x) => {
        if (dark) modules += `M${x} ${y}h1v1h-1z`;
      }),
    );
    return { size: qr.size, path: modules };
  }, [link]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${size} ${size}`}
      width="220"
      height="220"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
