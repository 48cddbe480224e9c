ALTER TABLE "knowledge_file_bytes" DROP CONSTRAINT "knowledge_file_bytes_file_id_knowledge_files_id_fk";--> statement-breakpoint
ALTER TABLE "knowledge_file_bytes" ADD COLUMN "part" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_file_bytes" ADD COLUMN "written_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "knowledge_file_bytes" DROP CONSTRAINT "knowledge_file_bytes_pkey";--> statement-breakpoint
ALTER TABLE "knowledge_file_bytes" ADD CONSTRAINT "knowledge_file_bytes_file_id_part_pk" PRIMARY KEY("file_id","part");
