import { ShareLinksList } from "../../../components/share-links/share-links-list.js";
import { useShareLinks } from "../../../domain/share-links.js";

/** Settings > Your chats > Shared links (issue 33): every link the user made, newest first. */
export function SharedLinksCard() {
  const links = useShareLinks();
  return <ShareLinksList list={links} empty='No shared links yet. Open a chat and choose "Share link" to make one.' />;
}
