import { useEffect, useRef } from 'react';
import styles from './call-link.module.css';

/** Keeps what a dialler understands; anything else in the query is dropped. */
export function toTelHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+*#,;]/g, '')}`;
}

/** Opens the device's call app for `phone` on arrival, with a link in case the browser blocked that. */
export function CallLink({ phone }: { phone: string }) {
  const linkRef = useRef<HTMLAnchorElement>(null);
  const activated = useRef(false);
  const href = toTelHref(phone);

  useEffect(() => {
    // Once per visit, even when React runs effects twice in development.
    if (activated.current || href === 'tel:') return;
    activated.current = true;
    linkRef.current?.click();
  }, [href]);

  return (
    <div className={styles.call}>
      {phone && <p className={styles.number}>{phone}</p>}
      <p>
        If call app didn&apos;t open automatically,{' '}
        <a ref={linkRef} href={href}>
          click here
        </a>
      </p>
    </div>
  );
}
